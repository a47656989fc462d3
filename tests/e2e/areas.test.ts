import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import ptPT from '../../locales/pt-PT.json';
import {
  closeTestPage,
  hasChromium,
  launchBrowser,
  openTestPage,
  signInByKeyboard,
  type TestPage,
} from '../support/browser';
import { startTestServer, type TestServer } from '../support/server';

describe.skipIf(!hasChromium)('areas of interest in Chromium, by keyboard', () => {
  let server: TestServer;
  let browser: Browser;
  let opened: TestPage;
  let page: Page;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  beforeEach(async () => {
    opened = await openTestPage(browser, { locale: 'pt-PT' });
    page = opened.page;
    await signInByKeyboard(page, server);
    await page.keyboard.press('g');
    await page.keyboard.press('i');
    await page.getByRole('heading', { name: ptPT.routes.areaInterest, level: 1 }).waitFor();
    await page.getByRole('table', { name: ptPT.routes.areaInterest }).waitFor();
  });
  afterEach(() => closeTestPage(opened));

  const nameField = () => page.getByLabel(ptPT.areas.name, { exact: true });

  it('lists the areas with their number of doctors, as the database counts them', async () => {
    const { rows } = await server.db.query<{ name: string; n: number }>(
      `SELECT a.name, count(u.id)::int AS n FROM interest_areas a
         LEFT JOIN professional_interest_areas pa ON pa.area_id = a.id
         LEFT JOIN users u ON u.id = pa.professional_id AND u.role = 'PROFESSIONAL'
        GROUP BY a.name ORDER BY a.name LIMIT 1`,
    );
    const first = rows[0]!;
    const row = page.getByRole('row', { name: new RegExp(`^${first.name}`) });
    expect(await row.getByRole('cell').nth(1).textContent()).toBe(String(first.n));
  });

  it('requires a name, and refuses a duplicate with the translated error', async () => {
    const { rows } = await server.db.query<{ name: string }>(
      'SELECT name FROM interest_areas ORDER BY name LIMIT 1',
    );
    const existing = rows[0]!.name;
    await nameField().focus();
    await page.keyboard.press('Enter');
    expect(await page.getByRole('alert').textContent()).toBe(ptPT.validation.required);

    // Same name, other case and stray spaces: still a duplicate.
    await page.keyboard.type(`  ${existing.toUpperCase()} `);
    await page.keyboard.press('Enter');
    await page
      .locator('#area-name-error', { hasText: ptPT.errorMessages.AREA_OF_INTEREST_ALREADY_EXISTS })
      .waitFor();
    const { rows: after } = await server.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM interest_areas WHERE lower(name) = lower($1)',
      [existing],
    );
    expect(after[0]!.n).toBe(1);
  });

  it('creates an area, then deletes it through the confirmation', async () => {
    const name = 'Medicina Hiperbárica E2E';
    await nameField().focus();
    await page.keyboard.type(name);
    await page.keyboard.press('Enter');
    const row = page.getByRole('row', { name: new RegExp(`^${name}`) });
    await row.waitFor();
    expect(await row.getByRole('cell').nth(1).textContent()).toBe('0');

    await row.getByRole('button', { name: ptPT.areas.deleteNamed.replace('{{name}}', name) }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('alertdialog', { name: ptPT.areas.deleteTitle.replace('{{name}}', name) }).waitFor();
    // Esc first: nothing is deleted.
    await page.keyboard.press('Escape');
    await page.getByRole('alertdialog').waitFor({ state: 'detached' });
    expect(await row.count()).toBe(1);
    await page.keyboard.press('Enter');
    await page.getByRole('alertdialog').waitFor();
    await page.keyboard.press('Enter');
    await row.waitFor({ state: 'detached' });
    const { rows } = await server.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM interest_areas WHERE name = $1',
      [name],
    );
    expect(rows[0]!.n).toBe(0);
  });
});

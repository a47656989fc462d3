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
  tabTo,
} from '../support/browser';
import { startTestServer, type TestServer } from '../support/server';

describe.skipIf(!hasChromium)('home dashboard and audit log in Chromium, keyboard only', () => {
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
    opened = await openTestPage(browser, { locale: 'en-US' }, { consoleErrors: true });
    page = opened.page;
    await signInByKeyboard(page, server);
  });
  afterEach(() => closeTestPage(opened));

  it('shows what needs attention and follows a counter to its filtered list', async () => {
    const { rows } = await server.db.query<{ n: string }>(
      `SELECT count(*)::text AS n FROM cases WHERE status = 'WAITING_PAYMENT'`,
    );
    const waiting = rows[0]!.n;
    expect(Number(waiting)).toBeGreaterThan(0);
    await page.getByTestId('count-waiting-payment').getByText(waiting, { exact: true }).waitFor();
    // The charts arrive after the counters, each with its summary for screen readers.
    await page.getByText(ptPT.home.charts.cases, { exact: true }).waitFor();
    expect(await page.getByTestId('chart-cases-summary').textContent()).toMatch(/^De /);

    await tabTo(page, (el) => el.getAttribute('href') === '/cases?status=WAITING_PAYMENT');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${server.url}/cases?status=WAITING_PAYMENT`);
    await page
      .getByTestId('cases-total')
      .getByText(new RegExp(`^${waiting} `))
      .waitFor();
  });

  it('finds an action in the audit log by its translated name and opens its entity', async () => {
    const { rows } = await server.db.query<{ entity_id: string }>(
      `SELECT entity_id FROM audit_log WHERE action = 'user.disable' ORDER BY created_at DESC, id DESC LIMIT 1`,
    );
    const newest = rows[0]!.entity_id;

    await page.keyboard.press('g');
    await page.keyboard.press('l');
    await page.waitForURL(`${server.url}/audit`);
    const table = page.getByRole('table', { name: ptPT.routes.audit });
    await table.getByRole('row').nth(1).waitFor();

    // `f` opens the Filter menu on the first filter (the actions); Enter opens its list, Tab and Space tick one.
    await page.keyboard.press('f');
    await page.getByRole('menuitem', { name: ptPT.audit.columns.action }).waitFor();
    await page.keyboard.press('Enter');
    await tabTo(page, (el) => el.closest('label')?.textContent === 'Desativou o utilizador', 40);
    await page.keyboard.press('Space');
    await page.waitForURL(/[?&]action=user\.disable/);
    await page.keyboard.press('Escape');
    await table.getByRole('row').nth(1).getByText('Desativou o utilizador', { exact: true }).waitFor();
    expect(await page.getByText('user.disable', { exact: true }).count()).toBe(0);

    await tabTo(page, (el) => el.closest('.data-table-scroll') !== null);
    await page.keyboard.press('j');
    await page.keyboard.press('o');
    await page.waitForURL(new RegExp(`/(customers|professionals)/${newest}$`));
    await page.getByRole('heading', { name: ptPT.users.sections.audit }).waitFor();
  });

  it('shows the change of an audit row in words, not codes (issue 29)', async () => {
    const table = page.getByRole('table', { name: ptPT.routes.audit });
    const firstChange = async (action: string) => {
      await page.goto(`${server.url}/audit?action=${action}`);
      const row = table.getByRole('row').nth(1);
      await row.waitFor();
      return (await row.locator('.audit-diff').textContent())?.replace(/\s+/g, ' ');
    };
    expect(await firstChange('user.disable')).toBe(
      `${ptPT.auditFields.disabled} ${ptPT.auditValues.no} → ${ptPT.auditValues.yes}`,
    );
    expect(await firstChange('professional.verify')).toBe(
      `${ptPT.auditFields.status} ${ptPT.users.status.EMAIL_VERIFIED} → ${ptPT.users.status.PROFESSIONAL_VERIFIED}`,
    );
  });
});

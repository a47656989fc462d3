import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ptPT from '../../locales/pt-PT.json';
import { readCsv } from '../api/exports-support';
import {
  closeTestPage,
  hasChromium,
  launchBrowser,
  openTestPage,
  signInByKeyboard,
  type TestPage,
} from '../support/browser';
import { startTestServer, type TestServer } from '../support/server';

describe.skipIf(!hasChromium)('exports in Chromium, by keyboard', () => {
  let server: TestServer;
  let browser: Browser;
  let opened: TestPage;
  let page: Page;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
    opened = await openTestPage(browser, { locale: 'pt-PT', acceptDownloads: true });
    page = opened.page;
    await signInByKeyboard(page, server);
  });
  afterAll(async () => {
    if (opened) await closeTestPage(opened);
    await browser?.close();
    await server?.stop();
  });

  it('requires the start date, runs a users export with its progress, downloads it and the file holds every user', async () => {
    await page.keyboard.press('g');
    await page.keyboard.press('u');
    await page.getByRole('heading', { name: ptPT.routes.exportUsers, level: 1 }).waitFor();

    // Submitting without a start date: the specification's message, and no job.
    const start = page.getByLabel(ptPT.exports.startDate);
    await start.focus();
    await page.keyboard.press('Enter');
    expect(await page.locator('#export-startDate-error').textContent()).toBe(ptPT.validation.required);
    const { rows: none } = await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM export_jobs');
    expect(none[0]!.n).toBe(0);

    // The date typed into the field's day, month and year segments (pt-PT order), then Enter.
    await page.keyboard.type('01012024');
    expect(await start.inputValue()).toBe('2024-01-01');
    await page.keyboard.press('Enter');

    // Queued: the progress region has focus, shows the bar at 0 of the counted rows, and Cancel.
    const progress = page.getByRole('region', { name: ptPT.exports.current });
    await progress.getByRole('progressbar').waitFor();
    expect(await progress.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await progress.getByRole('status').textContent()).toBe(ptPT.exports.queued);
    await progress.getByRole('button', { name: ptPT.exports.cancel }).waitFor();
    const { rows: jobs } = await server.db.query<{ estimated_total: number }>(
      `SELECT estimated_total FROM export_jobs WHERE status = 'queued'`,
    );
    expect(jobs).toHaveLength(1);

    // The runner writes it; the screen's polling turns the row into a download link.
    expect(await server.exportRunner.runNext()).toBe(true);
    const link = page.getByRole('link', { name: new RegExp(`^${ptPT.exports.download.split(' ')[0]} `) });
    await link.waitFor();
    await page.getByText(ptPT.exports.idle).waitFor();

    // Keyboard only: from the progress region, Tab reaches the download link; Enter saves the file.
    await progress.focus();
    await page.keyboard.press('Tab');
    expect(await link.evaluate((el) => el === document.activeElement)).toBe(true);
    const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
    expect(download.suggestedFilename()).toMatch(/^Utilizadores 2024-01-01 \d{4}-\d{2}-\d{2}\.csv$/);
    const [header, ...rows] = readCsv(readFileSync(await download.path()), ';');
    expect(header![0]).toBe('ID');
    const { rows: truth } = await server.db.query<{ id: string }>(
      `SELECT id FROM users WHERE role <> 'ADMIN'
          AND created_at >= ('2024-01-01'::timestamp AT TIME ZONE 'Europe/Lisbon') ORDER BY created_at, id`,
    );
    expect(rows.map((r) => r[0])).toEqual(truth.map((u) => u.id));
    expect(jobs[0]!.estimated_total).toBe(truth.length);
    const { rows: audited } = await server.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM audit_log WHERE action = 'export.download'`,
    );
    expect(audited[0]!.n).toBe(1);
  }, 120_000);
});

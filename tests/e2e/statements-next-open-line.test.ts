import type { Page } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { camt053 } from '../api/sepa-statement-support';
import {
  chromiumSuite,
  closeTestPage,
  hasChromium,
  openTestPage,
  signInByKeyboard,
  type TestPage,
  tabTo,
} from '../support/browser';
import { activeLine, lineStatuses } from './statement-lines';
import { importFromPage } from './statement-upload';

/** Each credit's cents; the first three suggested against a payout of their own, the fourth with none. */
const CREDITS = [41_001, 41_002, 41_003, 41_004];

// Decision 0169 in Chromium, keyboard only: a review queue — each decision lands on the next open line.
describe.skipIf(!hasChromium)('the next open line after a decision, in Chromium, keyboard only', () => {
  const suite = chromiumSuite();
  let opened: TestPage;
  let page: Page;

  beforeEach(async () => {
    opened = await openTestPage(suite.browser, { locale: 'pt-PT' });
    page = opened.page;
    await signInByKeyboard(page, suite.server);
  });
  afterEach(() => closeTestPage(opened));

  it('a a a accepts three suggested lines with no j between them, the fourth line active after; z goes back to the third', async () => {
    const { db } = suite.server;
    for (const [i, cents] of CREDITS.slice(0, 3).entries())
      await db.query(
        `INSERT INTO provider_payouts (provider_payout_id, amount_cents, payout_date) VALUES ($1, $2, $3)`,
        [`po_next_${i}`, cents, `2026-06-0${i + 1}`],
      );
    const xml = camt053(
      CREDITS.map((cents, i) => ({ cents, date: `2026-06-0${i + 1}`, text: 'TRF CRED PRESTADOR' })),
    );
    const fileId = await importFromPage(page, 'extrato-seguinte.xml', xml);
    await page.goto(`${suite.server.url}/statements?statementFileId=${fileId}`);
    const rows = page.locator('.statement-lines .data-table-body-row');
    await expect.poll(() => rows.count()).toBe(CREDITS.length);
    const statuses = () => lineStatuses(rows);
    expect(await statuses()).toEqual(['SUGGESTED', 'SUGGESTED', 'SUGGESTED', 'UNMATCHED']);
    const active = () => activeLine(page);

    await tabTo(page, (el) => el.closest('.statement-lines') !== null);
    await page.keyboard.press('j');
    expect(await active()).toEqual({ row: 1, focused: true });
    for (const next of [2, 3, 4]) {
      await page.keyboard.press('a');
      // The answer in, the cursor is on the next line (each waited for: one action at a time).
      await expect.poll(active).toEqual({ row: next, focused: true });
    }
    expect(await statuses()).toEqual(['MATCHED', 'MATCHED', 'MATCHED', 'UNMATCHED']);
    const matched = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM statement_lines WHERE statement_file_id = $1 AND status = 'MATCHED'`,
      [fileId],
    );
    expect(matched.rows[0]!.n).toBe(3);

    await page.keyboard.press('z');
    await expect.poll(statuses).toEqual(['MATCHED', 'MATCHED', 'SUGGESTED', 'UNMATCHED']);
    await expect.poll(active).toEqual({ row: 3, focused: true });
  });
});

import type { Page } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StatementLineRow } from '../../contract/reconciliation';
import { formatCents } from '../../domain/money';
import { camt053 } from '../api/sepa-statement-support';
import { insertDoctor, insertSettlements } from '../api/sepa-support';
import {
  chromiumSuite,
  closeTestPage,
  hasChromium,
  openTestPage,
  signInByKeyboard,
  type TestPage,
  tabTo,
} from '../support/browser';
import { ptPT } from '../support/messages';
import { filterLinesByText } from './statement-lines';
import { importFromPage } from './statement-upload';

/** More lines than the table's first page (500): `Shift+a` over the filter must take every page. */
const LINES = 620;
const DAY = '2026-05-11';
/** The payer's account of decision 0177's lines. */
const ACCOUNT = 'PT50003506510000088888888';

/** Lines the filter selects now, and their sum, read from the database (the seed may hold some too). */
const SELECTED = `FROM statement_lines l
  WHERE l.status = 'SUGGESTED' AND EXISTS (SELECT 1 FROM statement_line_matches m
    WHERE m.statement_line_id = l.id AND m.state = 'SUGGESTED' AND m.score >= 0.95::real)`;

describe.skipIf(!hasChromium)('suggestions by score in Chromium, keyboard only', () => {
  const suite = chromiumSuite();
  let opened: TestPage;
  let page: Page;

  beforeEach(async () => {
    opened = await openTestPage(suite.browser, { locale: 'pt-PT' });
    page = opened.page;
    await signInByKeyboard(page, suite.server);
  });
  afterEach(() => closeTestPage(opened));

  /** A statement of `LINES` credits, each suggested against its own payout; every other one scored 0.97. */
  async function suggestedStatement(): Promise<string> {
    const { db } = suite.server;
    await db.query(
      `INSERT INTO provider_payouts (provider_payout_id, amount_cents, payout_date)
       SELECT 'po_score_' || i, 30000 + i, '2026-05-10' FROM generate_series(1, ${LINES}) i`,
    );
    const xml = camt053(
      Array.from({ length: LINES }, (_, i) => ({ cents: 30001 + i, date: DAY, text: 'TRF CRED PRESTADOR' })),
    );
    const fileId = await importFromPage(page, 'extrato-pontuacao.xml', xml);
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM statement_lines WHERE statement_file_id = $1 AND status = 'SUGGESTED'`,
      [fileId],
    );
    expect(rows[0]!.n).toBe(LINES);
    // The matcher's confidence (its rules are tested with the matcher): every other line sure.
    await db.query(
      `UPDATE statement_line_matches m SET score = CASE WHEN l.line_number % 2 = 0 THEN 0.97 ELSE 0.9 END
         FROM statement_lines l WHERE l.id = m.statement_line_id AND l.statement_file_id = $1`,
      [fileId],
    );
    return fileId;
  }

  it('adds the score filter with f: the next to last filter of the menu (End, ↑), ≥ 95 chosen with ↓, kept in the URL', async () => {
    // One of the seed's suggestions made sure, so the filtered table has something to show.
    await suite.server.db.query(
      `UPDATE statement_line_matches SET score = 0.99 WHERE id = (
         SELECT m.id FROM statement_line_matches m JOIN statement_lines l ON l.id = m.statement_line_id
          WHERE l.status = 'SUGGESTED' AND m.state = 'SUGGESTED' ORDER BY m.id LIMIT 1)`,
    );
    const selected = await suite.server.db.query<{ n: number }>(`SELECT count(*)::int AS n ${SELECTED}`);
    expect(selected.rows[0]!.n).toBeGreaterThan(0);
    await page.keyboard.press('g');
    await page.keyboard.press('b');
    await page.getByRole('heading', { name: ptPT.routes.statements, level: 1 }).waitFor();
    await page.locator('.statement-lines .data-table-body-row').first().waitFor();
    await tabTo(page, (el) => el.closest('.statement-lines') !== null);
    await page.keyboard.press('f');
    await page.getByRole('menuitem', { name: ptPT.statements.lines.status }).waitFor();
    // The last is the payout-without-invoice filter (decision 0156).
    await page.keyboard.press('End');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent?.trim()))
      .toBe(ptPT.statements.lines.payoutWithoutInvoice);
    await page.keyboard.press('ArrowUp');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent?.trim()))
      .toBe(ptPT.statements.lines.minScore);
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.tagName === 'SELECT');
    await page.keyboard.press('ArrowDown');
    await page.waitForURL((url) => url.searchParams.get('minScore') === '0.95');
    await page.keyboard.press('Escape');
    const chip = `${ptPT.statements.lines.minScore}: ${ptPT.statements.lines.minScoreOption.replace('{{score}}', '95')}`;
    await page.getByRole('button', { name: chip, exact: true }).waitFor();
    // Only suggestions of at least that score are listed: as many as the database holds.
    const rows = page.locator('.statement-lines .data-table-body-row');
    await expect.poll(() => rows.count()).toBe(selected.rows[0]!.n);
    const statuses = await rows.evaluateAll((all) => all.map((r) => r.getAttribute('data-status')));
    expect(new Set(statuses)).toEqual(new Set(['SUGGESTED']));
  });

  it('reaches "score ≥ 95" from the palette, shows why, and Shift+a + Enter accepts every page of it; a line changed after the count is left and counted', async () => {
    const fileId = await suggestedStatement();
    const { db } = suite.server;
    const before = await db.query<{ n: number; sum: string }>(
      `SELECT count(*)::int AS n, sum(l.bank_amount_cents)::text AS sum ${SELECTED}`,
    );
    const { n: count, sum } = before.rows[0]!;
    expect(count).toBeGreaterThanOrEqual(LINES / 2);

    // The palette's command opens the table filtered by the score (a URL filter like any other).
    await page.keyboard.press('Control+k');
    await page.getByPlaceholder(ptPT.palette.placeholder).waitFor();
    await page.keyboard.type(ptPT.statementsPalette.scoreFilter);
    await page.getByRole('option', { name: ptPT.statementsPalette.scoreFilter }).first().waitFor();
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/statements');
    const url = new URL(page.url());
    expect([url.searchParams.getAll('status'), url.searchParams.get('minScore')]).toEqual([
      ['SUGGESTED'],
      '0.95',
    ]);
    const rows = page.locator('.statement-lines .data-table-body-row');
    await rows.first().waitFor();
    // Why each suggestion is offered, in its row: the first row's reasons as the API gives them.
    const first = await page.evaluate(async () => {
      const answer = await fetch('/v2/admin/statements/lines?status=SUGGESTED&minScore=0.95&limit=1');
      return ((await answer.json()) as { items: StatementLineRow[] }).items[0]!.suggestion!;
    });
    const mark = (yes: boolean) => (yes ? ptPT.statements.dialog.yes : ptPT.statements.dialog.no);
    const shownWhy = ptPT.statements.lines.why.replace(
      '{{reasons}}',
      ptPT.statements.dialog.reasons
        .replace('{{amount}}', mark(first.reasons.amountExact))
        .replace('{{days}}', String(first.reasons.dateDays))
        .replace('{{reference}}', mark(first.reasons.reference))
        .replace('{{name}}', String(Math.round(first.reasons.nameSimilarity * 100))) +
        // Booked on its rail's day a day or more after its counterpart: said too (decision 0175).
        (first.reasons.railDay && first.reasons.dateDays > 0 ? ptPT.statements.dialog.railDay : '') +
        // What the matcher read across the file (decision 0177).
        (first.reasons.sameAccount ? ptPT.statements.dialog.sameAccount : '') +
        (first.reasons.twin ? ptPT.statements.dialog.twin : ''),
    );
    expect(await rows.first().getByTestId('suggestion-why').textContent()).toBe(shownWhy);
    expect(first.score).toBeGreaterThanOrEqual(0.95);
    expect(await rows.first().getByTestId('suggestion').textContent()).toContain(
      ptPT.statements.lines.score.replace('{{score}}', String(Math.round(first.score * 100))),
    );

    // Keyboard into the table: j makes the first row active and its suggestion is said in full below
    // the toolbar (the cell is cut to its column).
    await tabTo(page, (el) => el.closest('.statement-lines') !== null);
    await page.keyboard.press('j');
    await expect.poll(() => page.getByTestId('active-suggestion').textContent()).toContain(shownWhy);
    // Nothing selected: Shift+a counts what the filter selects on every page.
    await page.keyboard.press('Shift+A');
    const counted = page.getByTestId('bulk-count');
    await counted.waitFor();
    expect(await counted.textContent()).toBe(
      ptPT.statements.filterAccept.count.other
        .replace('{{count}}', new Intl.NumberFormat('pt-PT').format(count))
        .replace('{{sum}}', formatCents(Number(sum), 'pt-PT', 'EUR')),
    );
    // Another admin accepts one of them before Enter: it is not accepted again, but counted.
    const { rows: taken } = await db.query<{ id: string }>(
      `SELECT l.id ${SELECTED} AND l.statement_file_id = $1 ORDER BY l.bank_date DESC, l.id LIMIT 1`,
      [fileId],
    );
    const otherAdmin = await page.evaluate(
      async (id) => (await fetch(`/v2/admin/statements/lines/${id}/accept`, { method: 'POST' })).status,
      taken[0]!.id,
    );
    expect(otherAdmin).toBe(200);
    await page.keyboard.press('Enter');
    const status = page.getByTestId('statement-lines-status');
    await expect
      .poll(() => status.textContent())
      .toContain(
        ptPT.statements.lines.accepted.replace('{{accepted}}', String(count - 1)).replace('{{skipped}}', '1'),
      );
    expect(await status.textContent()).toContain(
      ptPT.statements.lines.skippedBecause.changedMeanwhile.replace('{{count}}', '1'),
    );
    // Every page of the filter accepted; the lines below the score left as suggestions.
    const after = await db.query<{ n: number }>(`SELECT count(*)::int AS n ${SELECTED}`);
    expect(after.rows[0]!.n).toBe(0);
    const left = await db.query<{ status: string; n: number }>(
      `SELECT status, count(*)::int AS n FROM statement_lines WHERE statement_file_id = $1 GROUP BY status ORDER BY status`,
      [fileId],
    );
    expect(left.rows).toEqual([
      { status: 'MATCHED', n: LINES / 2 },
      { status: 'SUGGESTED', n: LINES / 2 },
    ]);
    // The table reads its pages again: the filter now selects nothing.
    await expect.poll(() => rows.count()).toBe(0);
  });

  /**
   * Decision 0177 in the table: Joaquim Quintela pays a 41 € invoice in his full name and a 23 € one as
   * "J QUINTELA" from the same account; Joana Quintela has a 23 € invoice of the same day. The "J QUINTELA"
   * line is suggested Joaquim's invoice at 95, and its row says the account is why.
   */
  it('lists the line printed alike with its account’s customer at 95 and says why, keyboard only', async () => {
    const { db } = suite.server;
    const doctor = await insertDoctor(db);
    /** A customer of this name with a sales document of `cents` for each amount, dated Monday 11 May. */
    const customerWith = async (fullName: string, amounts: number[]) => {
      const { rows } = await db.query<{ id: string }>(
        `INSERT INTO users (role, email, password_hash, name, full_name)
         VALUES ('CUSTOMER', $1, 'x', $2, $2) RETURNING id`,
        [`${fullName.replace(' ', '.').toLowerCase()}@demo.pt`, fullName],
      );
      const settlements = await insertSettlements(
        db,
        rows[0]!.id,
        doctor.id,
        amounts.map((grossCents) => ({ grossCents })),
      );
      for (const [k, settlementId] of settlements.entries())
        await db.query(
          `INSERT INTO provider_invoices (provider_invoice_id, invoice_no, document_type, amount_cents, invoice_date, settlement_id)
           VALUES ($1, $1, 'FT', $2, '2026-05-11', $3)`,
          [`FT ${fullName} ${k}`, amounts[k], settlementId],
        );
    };
    await customerWith('Joaquim Quintela', [4_100, 2_300]);
    await customerWith('Joana Quintela', [2_300]);
    const xml = camt053([
      { cents: 4_100, date: '2026-05-12', text: 'TRF SEPA JOAQUIM QUINTELA', counterpartyIban: ACCOUNT },
      { cents: 2_300, date: '2026-05-12', text: 'TRF SEPA J QUINTELA', counterpartyIban: ACCOUNT },
    ]);
    await importFromPage(page, 'extrato-conta.xml', xml);

    await page.keyboard.press('g');
    await page.keyboard.press('b');
    await page.getByRole('heading', { name: ptPT.routes.statements, level: 1 }).waitFor();
    await page.locator('.statement-lines .data-table-body-row').first().waitFor();
    await filterLinesByText(page, 'J QUINTELA');
    const rows = page.locator('.statement-lines .data-table-body-row');
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().getByTestId('suggestion').textContent()).toContain(
      ptPT.statements.lines.score.replace('{{score}}', '95'),
    );
    expect(await rows.first().getByTestId('suggestion-why').textContent()).toContain(
      ptPT.statements.dialog.sameAccount.trim(),
    );
  });
});

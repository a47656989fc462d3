import type { Page } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatCents } from '../../domain/money';
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
import { ptPT } from '../support/messages';
import { filterLinesByText } from './statement-lines';
import { importFromPage } from './statement-upload';

const FEES = 25;
const DAY = '2026-05-18';
const NOTE = 'Comissões bancárias de maio';

/** The lines the text filter "COMISSAO" lists, from the database (the seed's may be among them). */
const FEES_LISTED = `FROM statement_lines WHERE lower(description) LIKE '%comissao%'`;
const OPEN = `status IN ('UNMATCHED', 'SUGGESTED')`;

describe.skipIf(!hasChromium)('bulk ignore in Chromium, keyboard only', () => {
  const suite = chromiumSuite();
  let opened: TestPage;
  let page: Page;

  beforeEach(async () => {
    opened = await openTestPage(suite.browser, { locale: 'pt-PT' });
    page = opened.page;
    await signInByKeyboard(page, suite.server);
  });
  afterEach(() => closeTestPage(opened));

  it('filters the bank fees by their text, ignores them all with one note after their count and sum, and z undoes it', async () => {
    const { db } = suite.server;
    const xml = camt053([
      ...Array.from({ length: FEES }, (_, i) => ({
        cents: -(100 + i),
        date: DAY,
        family: 'CHRG',
        subFamily: 'CHRG',
        text: 'COMISSAO MANUTENCAO CONTA',
      })),
      { cents: 4321, date: DAY, text: 'TRF CRED J SIMOES' },
    ]);
    const fileId = await importFromPage(page, 'extrato-comissoes.xml', xml);
    const listed = await db.query<{ n: number; sum: string }>(
      `SELECT count(*)::int AS n, sum(bank_amount_cents)::text AS sum ${FEES_LISTED} AND ${OPEN}`,
    );
    const { n: count, sum } = listed.rows[0]!;
    // The seed ignored a fee of its own already: the table lists it as IGNORED throughout.
    const seedIgnored = (
      await db.query<{ n: number }>(`SELECT count(*)::int AS n ${FEES_LISTED} AND status = 'IGNORED'`)
    ).rows[0]!.n;
    const rows = page.locator('.statement-lines .data-table-body-row');
    // The rows drawn (the table draws those in view): their statuses.
    const shownStatuses = async () =>
      new Set(await rows.evaluateAll((all) => all.map((r) => r.getAttribute('data-status'))));
    expect(count).toBeGreaterThanOrEqual(FEES);

    // The statements screen, the filter menu (f), its "text the bank printed" filter, COMISSAO typed.
    await page.keyboard.press('g');
    await page.keyboard.press('b');
    await page.getByRole('heading', { name: ptPT.routes.statements, level: 1 }).waitFor();
    await page.locator('.statement-lines .data-table-body-row').first().waitFor();
    await tabTo(page, (el) => el.closest('.statement-lines') !== null);
    // With neither a selection nor a filter, Shift+i says what it needs and ignores nothing.
    await page.keyboard.press('Shift+I');
    await page.getByRole('alert').filter({ hasText: ptPT.statements.bulkIgnore.needsFilter }).waitFor();
    await filterLinesByText(page, 'COMISSAO');
    await expect
      .poll(() => page.getByTestId('statement-lines-total').textContent())
      .toBe(ptPT.statements.lines.total.other.replace('{{count}}', String(count + seedIgnored)));

    // Nothing selected: Shift+i counts the open lines the filter lists on every page, and asks why.
    await tabTo(page, (el) => el.closest('.statement-lines') !== null);
    await page.keyboard.press('Shift+I');
    const counted = page.getByTestId('bulk-count');
    await counted.waitFor();
    expect(await counted.textContent()).toBe(
      ptPT.statements.bulkIgnore.count.other
        .replace('{{count}}', new Intl.NumberFormat('pt-PT').format(count))
        .replace('{{sum}}', formatCents(Number(sum), 'pt-PT', 'EUR')),
    );
    // The note is required: Enter without one ignores nothing.
    await page.keyboard.press('Enter');
    expect(await counted.isVisible()).toBe(true);
    await page.keyboard.type(NOTE);
    await page.keyboard.press('Enter');
    const status = page.getByTestId('statement-lines-status');
    await expect
      .poll(() => status.textContent())
      .toContain(
        ptPT.statements.lines.ignored.replace('{{ignored}}', String(count)).replace('{{skipped}}', '0'),
      );
    const ours = async () =>
      (
        await db.query<{ status: string; notes: string | null; n: number }>(
          `SELECT status, notes, count(*)::int AS n FROM statement_lines WHERE statement_file_id = $1
            GROUP BY status, notes ORDER BY status`,
          [fileId],
        )
      ).rows;
    expect(await ours()).toEqual([
      { status: 'IGNORED', notes: NOTE, n: FEES },
      { status: 'UNMATCHED', notes: null, n: 1 },
    ]);
    // The table reads its pages again: every fee it lists is IGNORED now.
    await expect.poll(shownStatuses).toEqual(new Set(['IGNORED']));

    // z undoes the whole ignore as one action.
    await page.keyboard.press('z');
    await expect.poll(ours).toEqual([{ status: 'UNMATCHED', notes: null, n: FEES + 1 }]);
    await expect.poll(shownStatuses).toContain('UNMATCHED');
  });

  it('reaches the open lines with no candidate from the palette, a URL filter like any other', async () => {
    await page.keyboard.press('Control+k');
    await page.getByPlaceholder(ptPT.palette.placeholder).waitFor();
    await page.keyboard.type(ptPT.statementsPalette.noCandidate);
    await page.getByRole('option', { name: ptPT.statementsPalette.noCandidate }).first().waitFor();
    await page.keyboard.press('Enter');
    await page.waitForURL(
      (url) => url.pathname === '/statements' && url.searchParams.get('noCandidate') === 'true',
    );
    const chip = `${ptPT.statements.lines.noCandidate}: ${ptPT.statements.lines.noCandidateOption}`;
    await page.getByRole('button', { name: chip, exact: true }).waitFor();
    const rows = page.locator('.statement-lines .data-table-body-row');
    await rows.first().waitFor();
    const statuses = await rows.evaluateAll((all) => all.map((r) => r.getAttribute('data-status')));
    expect(new Set(statuses)).toEqual(new Set(['UNMATCHED']));
  });
});

// Issue 31 (decision 0156) in Chromium, keyboard only, through the screens an operator uses at month end:
// the demo month's Stripe report and a SAF-T missing one payment's invoice imported on /sources; the bank
// credit of that payout, a line of the demo's statement found from the palette by its amount and, when the
// matcher only suggested it (its text names no payout id), accepted with `a`; then the palette's "payouts with a
// settlement without invoice" opens the reconciliation table on that credit, its fees, refunds and
// "1 sem fatura" in its cells. Nothing reaches the API but through the screens.
import type { Page } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatCents } from '../../domain/money';
import {
  type DemoSourceFiles,
  type DemoStripePayout,
  writeDemoSaft,
  writeDemoSourceFiles,
} from '../../server/seed/source-files';
import {
  chooseFileByKeyboard,
  chromiumSuite,
  closeTestPage,
  hasChromium,
  openTestPage,
  signInByKeyboard,
  type TestPage,
  tabTo,
} from '../support/browser';
import { ptPT } from '../support/messages';

/** `YYYY-MM` → its last day, `YYYY-MM-DD` (the SAF-T's DateCreated must be a real date). */
const lastDayOf = (month: string) =>
  new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0)).toISOString().slice(0, 10);

describe.skipIf(!hasChromium)('a payout three ways in Chromium, keyboard only', () => {
  const suite = chromiumSuite();
  let opened: TestPage;
  let page: Page;

  beforeEach(async () => {
    opened = await openTestPage(suite.browser, { locale: 'pt-PT' });
    page = opened.page;
    await signInByKeyboard(page, suite.server);
  });
  afterEach(() => closeTestPage(opened));

  const focused = () => page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');
  /** A file imported on /sources: the file input's chooser by Space, then Enter on "import N new". */
  const importSourceFile = async (name: string, content: string) => {
    await tabTo(page, (el) => el instanceof HTMLInputElement && el.type === 'file');
    await chooseFileByKeyboard(page, { name, mimeType: 'text/plain', buffer: Buffer.from(content) });
    await page.getByTestId('source-known').waitFor();
    const [head, tail] = ptPT.sources.import.submitNew.other.split('{{count}}') as [string, string];
    const onSubmit = (label: string) => label.startsWith(head) && label.endsWith(tail);
    for (let i = 0; i < 80 && !onSubmit(await focused()); i++) await page.keyboard.press('Tab');
    expect(onSubmit(await focused())).toBe(true);
    await page.keyboard.press('Enter');
    await page.getByTestId('source-result').waitFor();
    await expect.poll(focused).toBe(ptPT.sources.import.close);
    await page.keyboard.press('Enter');
  };
  const openPalette = async () => {
    await page.keyboard.press('Control+k');
    await page.getByPlaceholder(ptPT.palette.placeholder).waitFor();
  };

  it('imports the payout and the SAF-T, accepts the credit by keys, and reaches it through the filter: fees, refunds, 1 sem fatura', async () => {
    const { db } = suite.server;
    // The demo's bank credits of payouts, each with an amount no other line has (so the palette finds that
    // one line), in the seed's months (today's clock): those the matcher only suggested (their text names no
    // payout id) first, then those it matched by the payout id in their text.
    const credits = await db.query<{
      month: string;
      provider_payout_id: string;
      cents: number;
      status: string;
    }>(
      `SELECT to_char(p.payout_date, 'YYYY-MM') AS month, p.provider_payout_id, l.bank_amount_cents AS cents,
              l.status::text AS status
         FROM statement_lines l
         JOIN statement_line_matches m ON m.statement_line_id = l.id AND m.state = l.status::text
         JOIN provider_payouts p ON p.id = m.payout_id
        WHERE l.status IN ('SUGGESTED', 'MATCHED')
          AND (SELECT count(*) FROM statement_lines o WHERE abs(o.bank_amount_cents) = abs(l.bank_amount_cents)) = 1
        ORDER BY l.status = 'SUGGESTED' DESC, p.payout_date DESC`,
    );
    // The first whose payout has a refund and two payments not refunded, all paid that month (so the month's
    // SAF-T invoices them all but the one left out). Over 24 seed days five apart from 2026-11-28 there were
    // 1–4 such credits each day, a suggested one on 8 of them.
    type Found = {
      month: string;
      files: DemoSourceFiles;
      payout: DemoStripePayout;
      cents: number;
      status: string;
    };
    let found: Found | undefined;
    for (const { month, provider_payout_id, cents, status } of credits.rows) {
      const files = await writeDemoSourceFiles(db, month);
      const payout = files.payouts.find((p) => p.id === provider_payout_id);
      if (
        payout?.rows.some((r) => r.kind === 'refund') &&
        payout.rows.filter((r) => r.kind === 'charge' && !r.payment.refunded).length >= 2 &&
        payout.rows.every((r) => r.payment.paidOn.startsWith(month))
      ) {
        found = { month, files, payout, cents, status };
        break;
      }
    }
    if (!found) throw new Error(`none of the demo's ${credits.rows.length} payout credits has a refund`);
    const { month, files, payout, cents, status } = found;
    expect(cents).toBe(payout.netCents);
    const uninvoiced = payout.rows.find((r) => r.kind === 'charge' && !r.payment.refunded)!.payment.reference;
    const saft = writeDemoSaft(
      month,
      files.payments.filter((p) => p.reference !== uninvoiced),
      lastDayOf(month),
    );

    await page.keyboard.press('g');
    await page.keyboard.press('o');
    await page.getByRole('heading', { name: ptPT.routes.sources, level: 1 }).waitFor();
    await importSourceFile(`stripe-payouts-${month}.csv`, files.stripeReport);
    await importSourceFile(`saft-${month}.xml`, saft);

    const rows = page.locator('.statement-lines .data-table-body-row');
    const credit = rows.filter({ hasText: formatCents(cents, 'pt-PT', 'EUR') });
    // The credit from the palette by its amount typed with a comma: its file's table narrowed to it.
    await openPalette();
    await page.keyboard.type(`${Math.floor(cents / 100)},${String(cents % 100).padStart(2, '0')}`);
    const shown = formatCents(cents, 'pt-PT').replace(/\s*€$/, '');
    await page
      .getByRole('option', { name: new RegExp(shown.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) })
      .first()
      .waitFor();
    await page.keyboard.press('Enter');
    await page.waitForURL(
      (url) => url.pathname === '/statements' && url.searchParams.get('minCents') !== null,
    );
    await credit.first().waitFor();
    expect(await rows.count()).toBe(1);
    expect(await credit.getAttribute('data-status')).toBe(status);
    if (status === 'SUGGESTED') {
      // Into the table by Tab, `j` to its one row, `a` accepts the suggested payout.
      await tabTo(page, (el) => el.closest('.statement-lines') !== null);
      await page.keyboard.press('j');
      await page.keyboard.press('a');
      await expect.poll(() => credit.getAttribute('data-status')).toBe('MATCHED');
    }

    // The palette's command opens the table on the lines whose payout has a settlement without invoice.
    await openPalette();
    await page.keyboard.type(ptPT.statementsPalette.payoutWithoutInvoice);
    await page.getByRole('option', { name: ptPT.statementsPalette.payoutWithoutInvoice }).first().waitFor();
    await page.keyboard.press('Enter');
    await page.waitForURL(
      (url) => url.pathname === '/statements' && url.searchParams.get('payoutWithoutInvoice') === 'true',
    );
    await credit.first().waitFor();
    // Only such lines are listed: every row shows a settlement without invoice.
    const missing = rows.filter({ has: page.getByTestId('invoicing-missing') });
    expect(await missing.count()).toBe(await rows.count());
    const fees = payout.rows.reduce((sum, r) => sum + r.feeCents, 0);
    const cells = (await credit.textContent()) ?? '';
    expect(cells).toContain(
      ptPT.statements.lines.payout.fees.replace('{{amount}}', formatCents(fees, 'pt-PT', 'EUR')),
    );
    const refunds = payout.rows.filter((r) => r.kind === 'refund');
    const refundWords = ptPT.statements.lines.payout.refunds[refunds.length === 1 ? 'one' : 'other'];
    expect(cells).toContain(
      refundWords.replace('{{count}}', String(refunds.length)).replace(
        '{{amount}}',
        formatCents(
          refunds.reduce((sum, r) => sum + r.netCents, 0),
          'pt-PT',
          'EUR',
        ),
      ),
    );
    expect(await credit.getByTestId('invoicing-missing').textContent()).toBe(
      ptPT.statements.lines.payout.withoutInvoice.one.replace('{{count}}', '1'),
    );
  }, 240_000);
});

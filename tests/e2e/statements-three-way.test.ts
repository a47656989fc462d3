// Issue 31 (decision 0156) in Chromium, keyboard only: the demo month's Stripe report and a SAF-T missing
// one payment's invoice imported on /sources; a statement with the payout's credit sent to the statement
// import route from the signed-in page (the screen's own upload flow is covered by statements.test.ts);
// then the palette's "payouts with a settlement without invoice" opens the reconciliation table on that
// credit, its fees, refunds and "1 sem fatura" in its cells.
import type { Page } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatCents } from '../../domain/money';
import {
  type DemoSourceFiles,
  type DemoStripePayout,
  writeDemoSaft,
  writeDemoSourceFiles,
} from '../../server/seed/source-files';
import { importPath, previewOf, statementCsv } from '../api/statement-support';
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

const dayMonthYear = (iso: string) => iso.split('-').reverse().join('-');
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
  /** A request from the signed-in page (its cookie, its Origin), as the console sends it. */
  const send = (path: string, method: string, body: unknown, contentType = 'application/json') =>
    page.evaluate(
      async ({ path, method, body, contentType }) => {
        const response = await fetch(path, {
          method,
          headers: { 'Content-Type': contentType, 'Idempotency-Key': crypto.randomUUID() },
          body: contentType === 'application/json' ? JSON.stringify(body) : (body as string),
        });
        return { status: response.status, body: await response.json() };
      },
      { path, method, body, contentType },
    );

  it('imports the payout and the SAF-T, and reaches the credit through the filter: fees, refunds, 1 sem fatura', async () => {
    const { db } = suite.server;
    // The seed runs on today's clock: the busiest payout months, the first with a payout that has a refund
    // and two unrefunded payments, all paid that month (so the SAF-T of the month invoices them).
    const months = await db.query<{ month: string }>(
      `SELECT to_char(payout_date, 'YYYY-MM') AS month FROM provider_payouts
        GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 6`,
    );
    let found: { month: string; files: DemoSourceFiles; payout: DemoStripePayout } | undefined;
    for (const { month } of months.rows) {
      const files = await writeDemoSourceFiles(db, month);
      const payout = files.payouts.find(
        (p) =>
          p.rows.some((r) => r.kind === 'refund') &&
          p.rows.filter((r) => r.kind === 'charge' && !r.payment.refunded).length >= 2 &&
          p.rows.every((r) => r.payment.paidOn.startsWith(month)),
      );
      if (payout) {
        found = { month, files, payout };
        break;
      }
    }
    if (!found) throw new Error('the demo has no payout with a refund');
    const { month, files, payout } = found;
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

    // The statement with the payout's credit, through the statement import route.
    const csv = Buffer.from(
      statementCsv([
        {
          date: dayMonthYear(payout.date),
          description: `STRIPE PAYMENTS ${payout.id}`,
          cents: payout.netCents,
          counterparty: 'Stripe',
        },
      ]),
    );
    const path = importPath('payout.csv', previewOf(new Uint8Array(csv)), {});
    const posted = await send(path, 'POST', csv.toString('utf8'), 'application/octet-stream');
    expect(posted.status).toBe(202);
    await expect
      .poll(async () => {
        const { rows } = await db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM statement_lines WHERE description = $1`,
          [`STRIPE PAYMENTS ${payout.id}`],
        );
        return rows[0]!.n;
      })
      .toBe(1);
    const line = await db.query<{ id: string; status: string; payout: string }>(
      `SELECT l.id, l.status, p.id AS payout FROM statement_lines l, provider_payouts p
        WHERE l.description = $1 AND p.provider_payout_id = $2`,
      [`STRIPE PAYMENTS ${payout.id}`, payout.id],
    );
    const { id: lineId, payout: payoutId } = line.rows[0]!;
    // The seed's bank already paid this payout: that line lets go of it, then the credit takes it by keys.
    const seeded = await db.query<{ line_id: string }>(
      `SELECT statement_line_id AS line_id FROM statement_line_matches
        WHERE payout_id = $1 AND state = 'MATCHED' AND statement_line_id <> $2`,
      [payoutId, lineId],
    );
    for (const { line_id } of seeded.rows)
      expect((await send(`/v2/admin/statements/lines/${line_id}/unmatch`, 'POST', {})).status).toBe(200);
    if (line.rows[0]!.status !== 'MATCHED') {
      const matched = await send(`/v2/admin/statements/lines/${lineId}/match`, 'POST', {
        counterparts: [{ kind: 'PAYOUT', id: payoutId }],
      });
      expect(matched.status).toBe(200);
    }

    // The palette's command opens the table on the lines whose payout has a settlement without invoice.
    await page.keyboard.press('Control+k');
    await page.getByPlaceholder(ptPT.palette.placeholder).waitFor();
    await page.keyboard.type(ptPT.statementsPalette.payoutWithoutInvoice);
    await page.getByRole('option', { name: ptPT.statementsPalette.payoutWithoutInvoice }).first().waitFor();
    await page.keyboard.press('Enter');
    await page.waitForURL(
      (url) => url.pathname === '/statements' && url.searchParams.get('payoutWithoutInvoice') === 'true',
    );
    const row = page
      .locator('.statement-lines .data-table-body-row')
      .filter({ hasText: `STRIPE PAYMENTS ${payout.id}` });
    await row.waitFor();
    // Only such lines are listed: every row shows a settlement without invoice.
    const rows = page.locator('.statement-lines .data-table-body-row');
    const missing = rows.filter({ has: page.getByTestId('invoicing-missing') });
    expect(await missing.count()).toBe(await rows.count());
    const fees = payout.rows.reduce((sum, r) => sum + r.feeCents, 0);
    const cells = (await row.textContent()) ?? '';
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
    expect(await row.getByTestId('invoicing-missing').textContent()).toBe(
      ptPT.statements.lines.payout.withoutInvoice.one.replace('{{count}}', '1'),
    );
  }, 240_000);
});

import type { Page } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatCents } from '../../domain/money';
import {
  chromiumSuite,
  closeTestPage,
  hasChromium,
  openTestPage,
  signInByKeyboard,
  type TestPage,
} from '../support/browser';
import { ptPT } from '../support/messages';

/** This month in Lisbon, as the console opens it. */
const lisbonMonth = () =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Lisbon', year: 'numeric', month: '2-digit' })
    .format(new Date())
    .slice(0, 7);
const monthsBetween = (from: string, to: string) =>
  Number(to.slice(0, 4)) * 12 + Number(to.slice(5)) - (Number(from.slice(0, 4)) * 12 + Number(from.slice(5)));

describe.skipIf(!hasChromium)('the month close in Chromium, keyboard only (decision 0155)', () => {
  const suite = chromiumSuite();
  let opened: TestPage;
  let page: Page;

  beforeEach(async () => {
    opened = await openTestPage(suite.browser, { locale: 'pt-PT' });
    page = opened.page;
    await signInByKeyboard(page, suite.server);
  });
  afterEach(() => closeTestPage(opened));

  /**
   * The demo's busiest past month invoiced, all but one settlement (the known missing invoice), and an
   * invoice billing nothing (the known invoice with no paid settlement).
   */
  async function invoiceAllButOne(): Promise<{ month: string; missingGross: number }> {
    const { db } = suite.server;
    // The suite's tests share one server: each starts from the demo's invoices.
    await db.query(`DELETE FROM provider_invoices WHERE provider_invoice_id LIKE 'FR E2E/%'`);
    const { rows } = await db.query<{ month: string }>(
      `SELECT reference_month AS month FROM settlements WHERE reference_month < $1
        GROUP BY 1 ORDER BY count(*) DESC, 1 DESC LIMIT 1`,
      [lisbonMonth()],
    );
    const month = rows[0]!.month;
    const { rows: settlements } = await db.query<{ id: string; gross_cents: number }>(
      'SELECT id, gross_cents FROM settlements WHERE reference_month = $1 ORDER BY id',
      [month],
    );
    const [missing, ...invoiced] = settlements;
    await db.query(
      `INSERT INTO provider_invoices (provider_invoice_id, amount_cents, invoice_date, settlement_id)
       SELECT 'FR E2E/' || n, g, ($2 || '-10')::date, id FROM unnest($1::uuid[], $3::int[]) WITH ORDINALITY AS x (id, g, n)`,
      [invoiced.map((s) => s.id), month, invoiced.map((s) => s.gross_cents)],
    );
    await db.query(
      `INSERT INTO provider_invoices (provider_invoice_id, amount_cents, invoice_date) VALUES ('FR E2E/STRAY', 1234, ($1 || '-12')::date)`,
      [month],
    );
    return { month, missingGross: missing!.gross_cents };
  }

  it('g m opens this month; [ walks back to the month; the settlement never invoiced is left; Enter on its row opens the settlements list filtered to it', async () => {
    const { month, missingGross } = await invoiceAllButOne();
    await page.keyboard.press('g');
    await page.keyboard.press('m');
    await page.getByRole('heading', { name: ptPT.routes.monthClose, level: 1 }).waitFor();
    const shown = page.getByTestId('month-close-month');
    for (let i = 0; i < monthsBetween(month, lisbonMonth()); i++) {
      const before = await shown.textContent();
      await page.keyboard.press('[');
      await expect.poll(() => shown.textContent()).not.toBe(before);
    }
    await page.waitForURL((url) => url.searchParams.get('month') === month);
    const settlementsLeft = page.getByTestId('unmatched-SETTLEMENTS');
    await expect
      .poll(() => settlementsLeft.textContent())
      .toBe(
        `${ptPT.monthClose.count.SETTLEMENTS.one.replace('{{count}}', '1')} · ${formatCents(missingGross, 'pt-PT', 'EUR')}`,
      );
    // What "matched" means is said on the row.
    expect(await page.getByTestId('month-close-SETTLEMENTS').textContent()).toContain(
      ptPT.monthClose.means.SETTLEMENTS,
    );
    // j makes the first row active and moves down (bank lines, payouts, invoices, settlements), the
    // active row holding the focus; Enter opens the row's list.
    for (let i = 0; i < 4; i++) await page.keyboard.press('j');
    await page.locator('tr[data-active][data-testid="month-close-SETTLEMENTS"]').waitFor();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe(
      'month-close-SETTLEMENTS',
    );
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/settlement');
    const url = new URL(page.url());
    expect([url.searchParams.get('referenceMonth'), url.searchParams.get('customerInvoiced')]).toEqual([
      month,
      'false',
    ]);
    const rows = page.locator('.data-table-body-row');
    await rows.first().waitFor();
    await expect.poll(() => rows.count()).toBe(1);
  });

  it('the palette closes last month: Ctrl+K, its words, Enter', async () => {
    const last = (() => {
      const [year, month] = lisbonMonth().split('-').map(Number) as [number, number];
      return month === 1 ? `${year - 1}-12` : `${year}-${String(month - 1).padStart(2, '0')}`;
    })();
    await page.keyboard.press('Control+k');
    await page.getByPlaceholder(ptPT.palette.placeholder).waitFor();
    const words = ptPT.financePalette.closeLastMonth.replace(/\s*\(\{\{month\}\}\)/, '');
    await page.keyboard.type(words);
    await page
      .getByRole('option', { name: new RegExp(`^${words}`) })
      .first()
      .waitFor();
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/month-close' && url.searchParams.get('month') === last);
    await page.getByTestId('month-close').waitFor();
    // Last month's five sources, each a row to open.
    expect(await page.locator('tr[data-testid^="month-close-"]').count()).toBe(5);
  });

  it('home counts the settlements never invoiced and the invoices with no paid settlement; Enter on the invoices card opens them', async () => {
    await invoiceAllButOne();
    const { db } = suite.server;
    const { rows } = await db.query<{ settlements: number; invoices: number }>(
      `SELECT (SELECT count(*)::int FROM settlements s
                WHERE NOT EXISTS (SELECT 1 FROM provider_invoices i WHERE i.settlement_id = s.id)) AS settlements,
              (SELECT count(*)::int FROM provider_invoices i WHERE i.settlement_id IS NULL
                AND NOT EXISTS (SELECT 1 FROM statement_line_matches m WHERE m.invoice_id = i.id AND m.state = 'MATCHED')) AS invoices`,
    );
    await page.reload();
    await page.getByRole('heading', { name: ptPT.routes.home, level: 1 }).waitFor();
    const format = (n: number) => new Intl.NumberFormat('pt-PT').format(n);
    await expect
      .poll(() => page.getByTestId('count-not-invoiced').textContent())
      .toBe(format(rows[0]!.settlements));
    await expect
      .poll(() => page.getByTestId('count-invoices-unpaid').textContent())
      .toBe(format(rows[0]!.invoices));
    await page.locator('a.stat-card', { has: page.getByTestId('count-invoices-unpaid') }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/provider-documents');
    const listed = page.locator('.data-table-body-row');
    await expect.poll(() => listed.count()).toBe(Math.min(rows[0]!.invoices, 100));
    expect(await page.locator('.data-table-body-row', { hasText: 'FR E2E/STRAY' }).count()).toBe(1);
  });
});

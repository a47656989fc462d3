import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../support/databases';
import { type CaseWorld, SEED_NOW, startCaseWorld } from './cases-support';

/**
 * The month closed in one view and its missing sides (issue 31, decision 0155), over HTTP on both
 * backends. The seed issues no invoice for its settlements, so the test invoices every settlement of a
 * month but one (the known missing invoice) and adds an invoice billing nothing (the known invoice with
 * no paid settlement). Every expected figure is computed here from the raw rows, in JavaScript, not by
 * the server's predicates.
 */

interface Split {
  count: number;
  amountCents: number;
}
interface MonthClose {
  month: string;
  rows: { source: string; matched: Split; unmatched: Split }[];
}

const split = (rows: { matched: boolean; cents: number }[], matched: boolean): Split => {
  const mine = rows.filter((r) => r.matched === matched);
  return { count: mine.length, amountCents: mine.reduce((sum, r) => sum + r.cents, 0) };
};
const both = (rows: { matched: boolean; cents: number }[]) => ({
  matched: split(rows, true),
  unmatched: split(rows, false),
});

describe.each(testDatabaseKinds())('month close API on $name', (kind) => {
  let world: CaseWorld;
  let month: string;
  let missingInvoice: { id: string; gross: number };
  let strayInvoiceId: string;

  beforeAll(async () => {
    world = await startCaseWorld(kind);
    world.clock.current = SEED_NOW;
    // The seeded month with the most settlements, and one SEPA file at least.
    const { rows } = await world.db.query<{ month: string }>(
      `SELECT s.reference_month AS month FROM settlements s
        WHERE s.reference_month IN (SELECT reference_month FROM sepa_files)
        GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1`,
    );
    month = rows[0]!.month;
    const { rows: settlements } = await world.db.query<{ id: string; gross_cents: number }>(
      'SELECT id, gross_cents FROM settlements WHERE reference_month = $1 ORDER BY id',
      [month],
    );
    expect(settlements.length).toBeGreaterThan(2);
    const [missing, ...invoiced] = settlements;
    missingInvoice = { id: missing!.id, gross: missing!.gross_cents };
    await world.db.query(
      `INSERT INTO provider_invoices (provider_invoice_id, amount_cents, invoice_date, settlement_id)
       SELECT 'FR T/' || n, g, ($2 || '-10')::date, id
         FROM unnest($1::uuid[], $3::int[]) WITH ORDINALITY AS x (id, g, n)`,
      [invoiced.map((s) => s.id), month, invoiced.map((s) => s.gross_cents)],
    );
    const { rows: stray } = await world.db.query<{ id: string }>(
      `INSERT INTO provider_invoices (provider_invoice_id, amount_cents, invoice_date)
       VALUES ('FR T/STRAY', 4321, ($1 || '-20')::date) RETURNING id`,
      [month],
    );
    strayInvoiceId = stray[0]!.id;
  }, 180_000);
  afterAll(async () => world?.stop());

  async function expectedRows() {
    const start = `${month}-01`;
    const q = async (sql: string) =>
      (await world.db.query<{ matched: boolean; cents: string | number }>(sql, [start, month])).rows.map(
        (r) => ({ matched: r.matched, cents: Number(r.cents) }),
      );
    const inMonth = (column: string) => `to_char(${column}, 'YYYY-MM') = $2 AND $1::text IS NOT NULL`;
    const lines = await q(
      `SELECT status IN ('MATCHED', 'IGNORED') AS matched, bank_amount_cents AS cents FROM statement_lines WHERE ${inMonth('bank_date')}`,
    );
    const matchedPayouts = new Set(
      (
        await world.db.query<{ id: string }>(
          `SELECT payout_id AS id FROM statement_line_matches WHERE state = 'MATCHED' AND payout_id IS NOT NULL`,
        )
      ).rows.map((r) => r.id),
    );
    const payouts = (
      await world.db.query<{ id: string; amount_cents: string }>(
        `SELECT id, amount_cents FROM provider_payouts WHERE to_char(payout_date, 'YYYY-MM') = $1`,
        [month],
      )
    ).rows.map((r) => ({ matched: matchedPayouts.has(r.id), cents: Number(r.amount_cents) }));
    const paidInvoices = new Set(
      (
        await world.db.query<{ id: string }>(
          `SELECT invoice_id AS id FROM statement_line_matches WHERE state = 'MATCHED' AND invoice_id IS NOT NULL`,
        )
      ).rows.map((r) => r.id),
    );
    const invoiceRows = (
      await world.db.query<{ id: string; amount_cents: string; settlement_id: string | null; month: string }>(
        `SELECT id, amount_cents, settlement_id, to_char(invoice_date, 'YYYY-MM') AS month FROM provider_invoices`,
      )
    ).rows;
    const invoices = invoiceRows
      .filter((r) => r.month === month)
      .map((r) => ({
        matched: r.settlement_id !== null || paidInvoices.has(r.id),
        cents: Number(r.amount_cents),
      }));
    const billed = new Set(invoiceRows.map((r) => r.settlement_id));
    const settlements = (
      await world.db.query<{ id: string; gross_cents: number }>(
        'SELECT id, gross_cents FROM settlements WHERE reference_month = $1',
        [month],
      )
    ).rows.map((r) => ({ matched: billed.has(r.id), cents: r.gross_cents }));
    const sepa = (
      await world.db.query<{ status: string; amount_cents: string; rejected_cents: string }>(
        'SELECT status, amount_cents, rejected_cents FROM sepa_files WHERE reference_month = $1',
        [month],
      )
    ).rows.map((r) => ({
      matched: r.status === 'PAID',
      cents: Number(r.amount_cents) - Number(r.rejected_cents),
    }));
    return [
      { source: 'BANK_LINES', ...both(lines) },
      { source: 'PAYOUTS', ...both(payouts) },
      { source: 'INVOICES', ...both(invoices) },
      { source: 'SETTLEMENTS', ...both(settlements) },
      { source: 'SEPA_FILES', ...both(sepa) },
    ];
  }

  it('counts and sums each source of the month, matched and unmatched, as the rows themselves say', async () => {
    const response = await world.get(`/v2/admin/finance/month-close?month=${month}`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as MonthClose;
    expect(body.month).toBe(month);
    expect(body.rows).toEqual(await expectedRows());
    const settlements = body.rows.find((r) => r.source === 'SETTLEMENTS')!;
    // the one settlement left uninvoiced on purpose
    expect(settlements.unmatched).toEqual({ count: 1, amountCents: missingInvoice.gross });
    // the seed's month has bank lines, payouts and SEPA files on both sides or one
    for (const source of ['BANK_LINES', 'PAYOUTS', 'SEPA_FILES'])
      expect(body.rows.find((r) => r.source === source)!.matched.count).toBeGreaterThan(0);
  });

  it('moves a settlement to matched once an invoice bills it', async () => {
    const { rows } = await world.db.query<{ id: string }>(
      `INSERT INTO provider_invoices (provider_invoice_id, amount_cents, invoice_date, settlement_id)
       VALUES ('FR T/LATE', $2, ($3 || '-28')::date, $1) RETURNING id`,
      [missingInvoice.id, missingInvoice.gross, month],
    );
    try {
      const body = (await (
        await world.get(`/v2/admin/finance/month-close?month=${month}`)
      ).json()) as MonthClose;
      expect(body.rows.find((r) => r.source === 'SETTLEMENTS')!.unmatched).toEqual({
        count: 0,
        amountCents: 0,
      });
      expect(body.rows).toEqual(await expectedRows());
    } finally {
      await world.db.query('DELETE FROM provider_invoices WHERE id = $1', [rows[0]!.id]);
    }
  });

  it('counts a payout or an invoice only SUGGESTED to a bank line as left, not matched', async () => {
    const { rows: line } = await world.db.query<{ id: string }>(
      `SELECT id FROM statement_lines WHERE status = 'UNMATCHED' ORDER BY id LIMIT 1`,
    );
    const { rows: payout } = await world.db.query<{ id: string }>(
      `INSERT INTO provider_payouts (provider_payout_id, amount_cents, payout_date)
       VALUES ('po_suggested_only', 777, ($1 || '-21')::date) RETURNING id`,
      [month],
    );
    const { rows: invoice } = await world.db.query<{ id: string }>(
      `INSERT INTO provider_invoices (provider_invoice_id, amount_cents, invoice_date)
       VALUES ('FT SUGGESTED/1', 888, ($1 || '-21')::date) RETURNING id`,
      [month],
    );
    const before = (await (
      await world.get(`/v2/admin/finance/month-close?month=${month}`)
    ).json()) as MonthClose;
    await world.db.query(
      `INSERT INTO statement_line_matches (statement_line_id, kind, payout_id, invoice_id, state, allocated_cents, score)
       VALUES ($1, 'PAYOUT', $2, NULL, 'SUGGESTED', 777, 0.8), ($1, 'INVOICE', NULL, $3, 'SUGGESTED', 888, 0.8)`,
      [line[0]!.id, payout[0]!.id, invoice[0]!.id],
    );
    try {
      const after = (await (
        await world.get(`/v2/admin/finance/month-close?month=${month}`)
      ).json()) as MonthClose;
      expect(after.rows).toEqual(before.rows);
      const row = (source: string) => after.rows.find((r) => r.source === source)!;
      expect(row('PAYOUTS').unmatched.amountCents).toBeGreaterThanOrEqual(777);
      expect(after.rows).toEqual(await expectedRows());
      const listed = (await (
        await world.get(`/v2/admin/finance/provider-documents?kind=PAYOUT&month=${month}&matched=false`)
      ).json()) as { items: { id: string; matched: boolean; statementLineId: string | null }[] };
      expect(listed.items.find((p) => p.id === payout[0]!.id)).toMatchObject({
        matched: false,
        statementLineId: null,
      });
    } finally {
      await world.db.query('DELETE FROM statement_line_matches WHERE payout_id = $1 OR invoice_id = $2', [
        payout[0]!.id,
        invoice[0]!.id,
      ]);
      await world.db.query('DELETE FROM provider_payouts WHERE id = $1', [payout[0]!.id]);
      await world.db.query('DELETE FROM provider_invoices WHERE id = $1', [invoice[0]!.id]);
    }
  });

  it('answers a month with nothing as zeros', async () => {
    const body = (await (
      await world.get('/v2/admin/finance/month-close?month=2099-01')
    ).json()) as MonthClose;
    expect(body.rows.map((r) => [r.source, r.matched.count + r.unmatched.count])).toEqual([
      ['BANK_LINES', 0],
      ['PAYOUTS', 0],
      ['INVOICES', 0],
      ['SETTLEMENTS', 0],
      ['SEPA_FILES', 0],
    ]);
  });

  it.each(['', '2026-13', '2026-1', 'abc', '1800-01', '2026-01%00'])(
    'refuses month=%s with 400 before any SQL',
    async (value) => {
      const response = await world.get(`/v2/admin/finance/month-close?month=${value}`);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { code: string }).code).toBe('VALIDATION_ERROR');
    },
  );

  it('lists the settlements paid and never invoiced (customerInvoiced=false), the known one among them', async () => {
    const body = (await (
      await world.get(`/v2/admin/settlement/?referenceMonth=${month}&customerInvoiced=false`)
    ).json()) as { items: { id: string }[]; total: number };
    expect(body.items.map((s) => s.id)).toEqual([missingInvoice.id]);
    const invoiced = (await (
      await world.get(`/v2/admin/settlement/?referenceMonth=${month}&customerInvoiced=true&limit=200`)
    ).json()) as { items: { id: string }[]; total: number };
    expect(invoiced.items.map((s) => s.id)).not.toContain(missingInvoice.id);
    expect(invoiced.total + body.total).toBe(
      (await expectedRows()).find((r) => r.source === 'SETTLEMENTS')!.matched.count + 1,
    );
  });

  it('lists the invoices with no paid settlement (matched=false), the stray one among them', async () => {
    const response = await world.get(
      `/v2/admin/finance/provider-documents?kind=INVOICE&month=${month}&matched=false`,
    );
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      items: { id: string; matched: boolean; amountCents: number; label: string }[];
      total: number;
    };
    expect(body.items.find((i) => i.id === strayInvoiceId)).toMatchObject({
      matched: false,
      amountCents: 4321,
      label: 'FR T/STRAY',
    });
    expect(body.items.every((i) => !i.matched)).toBe(true);
    const invoices = (await expectedRows()).find((r) => r.source === 'INVOICES')!;
    expect(body.total).toBe(invoices.unmatched.count);
    const payouts = (await (
      await world.get(`/v2/admin/finance/provider-documents?kind=PAYOUT&month=${month}&matched=true`)
    ).json()) as { items: { matched: boolean; statementLineId: string | null }[]; total: number };
    expect(payouts.total).toBe((await expectedRows()).find((r) => r.source === 'PAYOUTS')!.matched.count);
    expect(payouts.items.every((p) => p.matched && p.statementLineId !== null)).toBe(true);
  });

  it('counts both missing sides on the home dashboard, as their lists total them', async () => {
    const dashboard = (await (await world.get('/v2/admin/dashboard')).json()) as {
      attention: { settlementsNotInvoiced: Split; invoicesWithoutPaidSettlement: Split };
    };
    const billed = new Set(
      (
        await world.db.query<{ id: string }>(
          'SELECT settlement_id AS id FROM provider_invoices WHERE settlement_id IS NOT NULL',
        )
      ).rows.map((r) => r.id),
    );
    const notBilled = (
      await world.db.query<{ id: string; gross_cents: number }>('SELECT id, gross_cents FROM settlements')
    ).rows.filter((s) => !billed.has(s.id));
    expect(dashboard.attention.settlementsNotInvoiced).toEqual({
      count: notBilled.length,
      amountCents: notBilled.reduce((sum, s) => sum + s.gross_cents, 0),
    });
    const list = (await (await world.get('/v2/admin/settlement/?customerInvoiced=false&limit=1')).json()) as {
      total: number;
    };
    expect(list.total).toBe(notBilled.length);
    const invoices = (await (
      await world.get('/v2/admin/finance/provider-documents?kind=INVOICE&matched=false&limit=500')
    ).json()) as { items: { id: string; amountCents: number }[]; total: number };
    expect(invoices.items.map((i) => i.id)).toContain(strayInvoiceId);
    expect(dashboard.attention.invoicesWithoutPaidSettlement).toEqual({
      count: invoices.total,
      amountCents: invoices.items.reduce((sum, i) => sum + i.amountCents, 0),
    });
  });
});

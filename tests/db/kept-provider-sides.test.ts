import fc from 'fast-check';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Queryable } from '../../server/db/client';
import { INVOICE_MATCHED, SETTLEMENT_INVOICED } from '../../server/db/provider-sides';
import { listProviderDocuments } from '../../server/finance/provider-documents';
import { listSettlements } from '../../server/finance/settlements';
import type { DocumentOut, SourceReading } from '../../server/sources/source-reading';
import { insertDocuments } from '../../server/sources/source-rows';
import { queryableOf, type TwoConnections, testDatabaseKinds, twoConnections } from '../support/databases';

/**
 * Migration 0046's kept totals of the home dashboard's two missing sides (docs/decisions/0155) equal a
 * recount after every statement that could move them: settlements written, their status and gross
 * changed, deleted (their invoices then bill nothing); invoices written billing a settlement or nothing,
 * moved to another settlement or to none, their amount changed, deleted (their links with them); bank
 * lines linked to invoices SUGGESTED or MATCHED, a link's state changed, links and lines deleted; several
 * rows per statement. The recount is the rows read back and added up here, and the totals of the lists the
 * two cards open (the settlements "invoiced to the customer: no", the invoices not matched).
 */

const STATUSES = ['READY_TO_SETTLE', 'AVAILABLE', 'SETTLED', 'PAID', 'REFUNDED', 'REFUNDED_PAID'] as const;

/** A slice of a table's rows in id order: `from` (modulo the row count) and the `count` after it. */
const slice = fc.record({ from: fc.nat(40), count: fc.integer({ min: 1, max: 4 }) });
type Slice = { from: number; count: number };

const move = fc.oneof(
  fc.record({
    op: fc.constant('insert settlements' as const),
    count: fc.integer({ min: 1, max: 4 }),
    gross: fc.integer({ min: 1, max: 50_000 }),
  }),
  fc.record({ op: fc.constant('set status' as const), rows: slice, status: fc.constantFrom(...STATUSES) }),
  fc.record({
    op: fc.constant('set gross' as const),
    rows: slice,
    gross: fc.integer({ min: 1, max: 50_000 }),
  }),
  fc.record({ op: fc.constant('delete settlements' as const), rows: slice }),
  fc.record({
    op: fc.constant('insert invoices' as const),
    count: fc.integer({ min: 1, max: 4 }),
    amount: fc.integer({ min: 10, max: 50_000 }),
    // the settlements billed, one per invoice in turn, or none
    bills: fc.option(slice),
  }),
  fc.record({ op: fc.constant('bill' as const), rows: slice, settlements: fc.option(slice) }),
  fc.record({
    op: fc.constant('set amount' as const),
    rows: slice,
    amount: fc.integer({ min: 10, max: 50_000 }),
  }),
  fc.record({ op: fc.constant('delete invoices' as const), rows: slice }),
  // A credit note names the invoice it corrects (migration 0047): it is no longer an invoice billing nothing.
  fc.record({ op: fc.constant('credit' as const), rows: slice, invoices: fc.option(slice) }),
  fc.record({
    op: fc.constant('link' as const),
    line: fc.nat(4),
    rows: slice,
    state: fc.constantFrom('SUGGESTED' as const, 'MATCHED' as const),
  }),
  fc.record({
    op: fc.constant('set state' as const),
    rows: slice,
    state: fc.constantFrom('SUGGESTED' as const, 'MATCHED' as const),
  }),
  fc.record({ op: fc.constant('delete links' as const), rows: slice }),
  fc.record({ op: fc.constant('delete line' as const), line: fc.nat(4) }),
);
type Move = typeof move extends fc.Arbitrary<infer T> ? T : never;

interface World {
  doctor: string;
  customer: string;
  statementFile: string;
}

/** The ids of `table`'s rows in the slice (its `where` first): one statement then changes them all. */
const ids = (table: string, rows: Slice, where = 'true') =>
  `SELECT id FROM ${table} WHERE ${where} ORDER BY id
    OFFSET ${rows.from} % greatest((SELECT count(*) FROM ${table} WHERE ${where}), 1) LIMIT ${rows.count}`;

/** Five statement lines to link invoices to; one deleted (its links with it) is written again. */
const ensureLines = (db: Queryable, world: World) =>
  db.query(
    `INSERT INTO statement_lines (statement_file_id, line_number, dedup_key, bank_amount_cents, bank_date, kind, status)
     SELECT $1, g, 'kept-sides-' || g, -1000, '2026-01-05', 'other', 'UNMATCHED' FROM generate_series(1, 5) g
      WHERE NOT EXISTS (SELECT 1 FROM statement_lines l WHERE l.line_number = g)`,
    [world.statementFile],
  );

async function apply(db: Queryable, world: World, m: Move, step: number): Promise<void> {
  switch (m.op) {
    case 'insert settlements':
      await db.query(
        `WITH c AS (INSERT INTO cases (customer_id, professional_id, status, type, price_cents)
                    SELECT $1, $2, 'CLOSED_BY_PROFESSIONAL', 'SINGLE_CASE', $4 FROM generate_series(1, $3) RETURNING id)
         INSERT INTO settlements (professional_id, case_id, reference_month, gross_cents, fee_cents, net_cents, status)
         SELECT $2, c.id, '2026-01', $4, 0, $4, 'AVAILABLE' FROM c`,
        [world.customer, world.doctor, m.count, m.gross],
      );
      return;
    case 'set status':
      await db.query(`UPDATE settlements SET status = $1 WHERE id IN (${ids('settlements', m.rows)})`, [
        m.status,
      ]);
      return;
    case 'set gross':
      await db.query(
        `UPDATE settlements SET gross_cents = $1, net_cents = $1 WHERE id IN (${ids('settlements', m.rows)})`,
        [m.gross],
      );
      return;
    case 'delete settlements':
      await db.query(`DELETE FROM settlements WHERE id IN (${ids('settlements', m.rows)})`);
      return;
    case 'insert invoices': {
      const billed = m.bills
        ? `(SELECT array_agg(id) FROM (${ids('settlements', m.bills)}) b)`
        : 'NULL::uuid[]';
      await db.query(
        `WITH billed AS (SELECT ${billed} AS ids)
         INSERT INTO provider_invoices (provider_invoice_id, amount_cents, invoice_date, settlement_id)
         SELECT 'FT KEPT/' || $1 || '-' || g, $2, '2026-01-10', billed.ids[1 + (g - 1) % greatest(cardinality(billed.ids), 1)]
           FROM generate_series(1, $3) g, billed`,
        [`${step}-${Math.random().toString(36).slice(2, 8)}`, m.amount, m.count],
      );
      return;
    }
    case 'bill':
      await db.query(
        `UPDATE provider_invoices SET settlement_id = ${m.settlements ? `(${ids('settlements', { ...m.settlements, count: 1 })})` : 'NULL'}
          WHERE id IN (${ids('provider_invoices', m.rows)})`,
      );
      return;
    case 'credit':
      await db.query(
        `UPDATE provider_invoices SET credited_invoice_id = ${m.invoices ? `(${ids('provider_invoices', { ...m.invoices, count: 1 })})` : 'NULL'}
          WHERE id IN (${ids('provider_invoices', m.rows)})`,
      );
      return;
    case 'set amount':
      await db.query(
        `UPDATE provider_invoices SET amount_cents = $1 WHERE id IN (${ids('provider_invoices', m.rows)})`,
        [m.amount],
      );
      return;
    case 'delete invoices':
      await db.query(`DELETE FROM provider_invoices WHERE id IN (${ids('provider_invoices', m.rows)})`);
      return;
    case 'link':
      // One cent each: a line's part never takes an invoice (10 cents or more, five lines) over its amount.
      await ensureLines(db, world);
      await db.query(
        `INSERT INTO statement_line_matches (statement_line_id, kind, invoice_id, state, allocated_cents)
         SELECT (SELECT id FROM statement_lines WHERE line_number = $1 + 1), 'INVOICE', i.id, $2, 1
           FROM (${ids('provider_invoices', m.rows)}) i
         ON CONFLICT DO NOTHING`,
        [m.line, m.state],
      );
      return;
    case 'set state':
      await db.query(
        `UPDATE statement_line_matches SET state = $1 WHERE id IN (${ids('statement_line_matches', m.rows)})`,
        [m.state],
      );
      return;
    case 'delete links':
      await db.query(
        `DELETE FROM statement_line_matches WHERE id IN (${ids('statement_line_matches', m.rows)})`,
      );
      return;
    case 'delete line':
      await db.query('DELETE FROM statement_lines WHERE line_number = $1 + 1', [m.line]);
      return;
  }
}

interface Side {
  items: number;
  cents: number;
}
interface Sides {
  settlementsNotInvoiced: Side;
  invoicesWithoutSettlement: Side;
}

/** Both sides added up here from the rows, by the rules of decision 0155. */
async function recounted(db: Queryable): Promise<Sides> {
  const settlements = await db.query<{ id: string; gross_cents: string }>(
    'SELECT id, gross_cents FROM settlements',
  );
  const invoices = await db.query<{
    id: string;
    settlement_id: string | null;
    credited_invoice_id: string | null;
    amount_cents: string;
  }>('SELECT id, settlement_id, credited_invoice_id, amount_cents FROM provider_invoices');
  const links = await db.query<{ invoice_id: string }>(
    `SELECT invoice_id FROM statement_line_matches WHERE invoice_id IS NOT NULL AND state = 'MATCHED'`,
  );
  const billed = new Set(invoices.rows.map((i) => i.settlement_id));
  const paidByBank = new Set(links.rows.map((l) => l.invoice_id));
  const sum = (values: string[]) => ({
    items: values.length,
    cents: values.reduce((a, v) => a + Number(v), 0),
  });
  return {
    settlementsNotInvoiced: sum(settlements.rows.filter((s) => !billed.has(s.id)).map((s) => s.gross_cents)),
    invoicesWithoutSettlement: sum(
      invoices.rows
        .filter((i) => i.settlement_id === null && i.credited_invoice_id === null && !paidByBank.has(i.id))
        .map((i) => i.amount_cents),
    ),
  };
}

async function kept(db: Queryable): Promise<Sides> {
  const { rows } = await db.query<{ side: string; items: string; cents: string }>(
    'SELECT side, sum(items)::text AS items, sum(amount_cents)::text AS cents FROM provider_side_totals GROUP BY 1',
  );
  const side = (name: string) => {
    const row = rows.find((r) => r.side === name);
    return { items: Number(row?.items ?? 0), cents: Number(row?.cents ?? 0) };
  };
  return {
    settlementsNotInvoiced: side('SETTLEMENT_NOT_INVOICED'),
    invoicesWithoutSettlement: side('INVOICE_WITHOUT_SETTLEMENT'),
  };
}

/** The two lists the cards open, counted by their own code, and their amounts by the same predicates. */
async function listed(db: Queryable): Promise<Sides> {
  const settlements = await listSettlements(db, {
    customerInvoiced: false,
    sort: 'created',
    order: 'desc',
    limit: 1,
  });
  const invoices = await listProviderDocuments(db, { kind: 'INVOICE', matched: false, limit: 1 });
  const { rows } = await db.query<{ settlement_cents: string; invoice_cents: string }>(
    `SELECT (SELECT coalesce(sum(s.gross_cents), 0) FROM settlements s WHERE NOT ${SETTLEMENT_INVOICED})::text AS settlement_cents,
            (SELECT coalesce(sum(i.amount_cents), 0) FROM provider_invoices i WHERE NOT ${INVOICE_MATCHED})::text AS invoice_cents`,
  );
  return {
    settlementsNotInvoiced: { items: settlements.total, cents: Number(rows[0]!.settlement_cents) },
    invoicesWithoutSettlement: { items: invoices.total, cents: Number(rows[0]!.invoice_cents) },
  };
}

async function expectKeptEqualsRecount(db: Queryable, after: string): Promise<void> {
  const expected = await recounted(db);
  expect(await kept(db), `kept after ${after}`).toEqual(expected);
  expect(await listed(db), `lists after ${after}`).toEqual(expected);
}

async function makeWorld(db: Queryable): Promise<World> {
  const one = async (sql: string, params: unknown[] = []) =>
    (await db.query<{ id: string }>(sql, params)).rows[0]!.id;
  const user = (email: string, role: string) =>
    one('INSERT INTO users (role, email) VALUES ($1, $2) RETURNING id', [role, email]);
  const doctor = await user('sides.pro@example.com', 'PROFESSIONAL');
  const customer = await user('sides.customer@example.com', 'CUSTOMER');
  const stored = await one(
    `INSERT INTO stored_files (original_name, content_type, size_bytes, sha256, storage_key)
     VALUES ('extrato.csv', 'text/csv', 1, repeat('a', 64), 'x/sides') RETURNING id`,
  );
  const statementFile = await one(
    `INSERT INTO statement_files (file_id, format, sha256) VALUES ($1, 'CSV', repeat('b', 64)) RETURNING id`,
    [stored],
  );
  return { doctor, customer, statementFile };
}

/** Everything the moves write, emptied between runs (TRUNCATE: the totals are counted again). */
const emptied = async (db: Queryable) =>
  db.query('TRUNCATE statement_line_matches, statement_lines, provider_invoices, settlements, cases CASCADE');

describe.each(testDatabaseKinds())('provider-side totals kept by migration 0046 on $name', (kind) => {
  let db: Database;
  let world: World;
  beforeAll(async () => {
    db = await kind.open();
    world = await makeWorld(db);
  }, 120_000);
  afterAll(async () => db?.close());

  it('equal a recount and the lists’ totals after every statement of any sequence of moves', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(move, { minLength: 1, maxLength: 30 }), async (moves) => {
        await emptied(db);
        await expectKeptEqualsRecount(db, 'TRUNCATE');
        for (const [step, m] of moves.entries()) {
          await apply(db, world, m, step);
          await expectKeptEqualsRecount(db, `${step}: ${JSON.stringify(m)}`);
        }
      }),
      { numRuns: 60 },
    );
  }, 300_000);

  it('a settlement deleted frees its invoices, and a MATCHED line keeps a freed invoice accounted for', async () => {
    await emptied(db);
    await apply(db, world, { op: 'insert settlements', count: 2, gross: 5000 }, 0);
    await apply(
      db,
      world,
      { op: 'insert invoices', count: 2, amount: 5000, bills: { from: 0, count: 2 } },
      1,
    );
    await apply(db, world, { op: 'link', line: 0, rows: { from: 0, count: 1 }, state: 'MATCHED' }, 2);
    expect(await kept(db)).toEqual({
      settlementsNotInvoiced: { items: 0, cents: 0 },
      invoicesWithoutSettlement: { items: 0, cents: 0 },
    });
    await db.query('DELETE FROM settlements');
    // the invoice a bank line pays stays accounted for; the other bills nothing now
    expect(await kept(db)).toEqual({
      settlementsNotInvoiced: { items: 0, cents: 0 },
      invoicesWithoutSettlement: { items: 1, cents: 5000 },
    });
    await expectKeptEqualsRecount(db, 'the settlements deleted');
    // the paid one deleted with its link: it was never counted, so nothing moves
    await db.query(
      `DELETE FROM provider_invoices WHERE id IN (SELECT invoice_id FROM statement_line_matches WHERE state = 'MATCHED')`,
    );
    expect((await kept(db)).invoicesWithoutSettlement).toEqual({ items: 1, cents: 5000 });
    await expectKeptEqualsRecount(db, 'the paid invoice deleted');
  });
});

// Two connections at once, each billing the same settlement, or unmatching the same invoice: the second
// waits for the first and counts what it left (without the lock each would see only its own change).
const serverUrl = process.env.TEST_DATABASE_URL;
if (serverUrl)
  describe('provider-side totals under concurrency on postgres', () => {
    let connections: TwoConnections;
    let first: pg.Client;
    let second: pg.Client;
    const on = queryableOf;
    let world: World;
    beforeAll(async () => {
      connections = await twoConnections(serverUrl);
      ({ first, second } = connections);
      world = await makeWorld(on(first));
    });
    afterAll(async () => connections?.close());

    it('two transactions billing one settlement, or unmatching one invoice, count it once', async () => {
      await apply(on(first), world, { op: 'insert settlements', count: 1, gross: 7000 }, 0);
      await first.query('BEGIN');
      await apply(
        on(first),
        world,
        { op: 'insert invoices', count: 1, amount: 7000, bills: { from: 0, count: 1 } },
        1,
      );
      const billing = apply(
        on(second),
        world,
        { op: 'insert invoices', count: 1, amount: 7000, bills: { from: 0, count: 1 } },
        2,
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      await first.query('COMMIT');
      await billing;
      await expectKeptEqualsRecount(on(first), 'two invoices of one settlement');

      await apply(on(first), world, { op: 'insert invoices', count: 1, amount: 900, bills: null }, 3);
      const stray = `(SELECT id FROM provider_invoices WHERE settlement_id IS NULL)`;
      await ensureLines(on(first), world);
      await first.query(
        `INSERT INTO statement_line_matches (statement_line_id, kind, invoice_id, state, allocated_cents)
         SELECT l.id, 'INVOICE', ${stray}, 'MATCHED', 1 FROM statement_lines l WHERE l.line_number IN (1, 2)`,
      );
      await expectKeptEqualsRecount(on(first), 'an invoice matched by two lines');
      await first.query('BEGIN');
      await first.query(
        `DELETE FROM statement_line_matches WHERE statement_line_id = (SELECT id FROM statement_lines WHERE line_number = 1)`,
      );
      const unmatching = second.query(
        `DELETE FROM statement_line_matches WHERE statement_line_id = (SELECT id FROM statement_lines WHERE line_number = 2)`,
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      await first.query('COMMIT');
      await unmatching;
      await expectKeptEqualsRecount(on(first), 'both lines unmatched at once');
      expect((await kept(on(first))).invoicesWithoutSettlement).toEqual({ items: 1, cents: 900 });
    });

    // An import's insert (the product's `insertDocuments`) billing a settlement while an operator takes
    // another invoice off it: the import's trigger waits for the operator's lock and counts the settlement
    // as the operator left it (without the lock it saw it still billed, and the settlement stayed counted
    // as never invoiced though the import's invoice bills it).
    it('an import billing a settlement an operator is freeing counts it once', async () => {
      const one = async (sql: string, params: unknown[] = []) =>
        (await first.query<{ id: string }>(sql, params)).rows[0]!.id;
      const caseId = await one(
        `INSERT INTO cases (customer_id, professional_id, status, type, price_cents)
         VALUES ($1, $2, 'CLOSED_BY_PROFESSIONAL', 'SINGLE_CASE', 4200) RETURNING id`,
        [world.customer, world.doctor],
      );
      const settlement = await one(
        `INSERT INTO settlements (professional_id, case_id, reference_month, gross_cents, fee_cents, net_cents, status)
         VALUES ($1, $2, '2026-01', 4200, 0, 4200, 'AVAILABLE') RETURNING id`,
        [world.doctor, caseId],
      );
      await first.query(
        `INSERT INTO provider_invoices (provider_invoice_id, amount_cents, invoice_date, settlement_id)
         VALUES ('FT RACE/1', 4200, '2026-01-10', $1)`,
        [settlement],
      );
      const stored = await one(
        `INSERT INTO stored_files (original_name, content_type, size_bytes, sha256, storage_key)
         VALUES ('saft.xml', 'application/xml', 1, repeat('c', 64), 'x/race') RETURNING id`,
      );
      const sourceFile = await one(
        `INSERT INTO source_files (kind, file_id, file_name, sha256, row_count, new_rows, duplicates_skipped,
                                   total_cents, control_totals_checked, summary, imported_at)
         VALUES ('SAFT_INVOICES', $1, 'saft.xml', repeat('d', 64), 1, 0, 0, 4200, true, '{}', now()) RETURNING id`,
        [stored],
      );
      const document: DocumentOut = {
        sourceId: 'FR RACE/2|ATCUD-RACE-2',
        invoiceNo: 'FR RACE/2',
        atcud: 'ATCUD-RACE-2',
        type: 'FR',
        crediting: false,
        status: 'N',
        date: '2026-01-10',
        customerTaxId: '999999990',
        grossCents: 4200,
        netCents: 4200,
        taxCents: 0,
        amountCents: 4200,
        caseReference: caseId,
        creditsInvoiceNo: null,
      };
      await first.query('BEGIN');
      await first.query('UPDATE provider_invoices SET settlement_id = NULL WHERE settlement_id = $1', [
        settlement,
      ]);
      await second.query('BEGIN');
      const importing = insertDocuments(
        on(second),
        sourceFile,
        { documents: [document] } as unknown as SourceReading,
        () => true,
        () => {},
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      await first.query('COMMIT');
      expect((await importing).newRows).toBe(1);
      await second.query('COMMIT');
      const billedBy = await first.query<{ provider_invoice_id: string }>(
        'SELECT provider_invoice_id FROM provider_invoices WHERE settlement_id = $1',
        [settlement],
      );
      expect(billedBy.rows).toEqual([{ provider_invoice_id: document.sourceId }]);
      await expectKeptEqualsRecount(on(first), 'an import billing a settlement an operator freed');
    });

    // Decision 0162: PL/pgSQL keeps one plan per statement of a function for the session, and after five
    // calls a generic one, planned without its arrays. The invoices' trigger then counted the settlements'
    // invoices in a nested loop that compared every settlement billed with every count (12.5 million pairs
    // for an import's chunk of 5,000, once the table held 25,000 invoices). The triggers' statements are
    // planned for their arrays however often they ran (the planner's row estimate of each array read by
    // the count is its length), and the totals stay exact.
    const STATEMENTS = 8;
    const PER_STATEMENT = 300;

    /** Each array the triggers' counts read while `statements` ran: as planned, and as it came. */
    async function arraysCounted(statements: () => Promise<void>) {
      const counts: string[] = [];
      const collect = (notice: { message?: string }) => {
        if (notice.message?.includes('Query Text: SELECT sum(c.moved)')) counts.push(notice.message);
      };
      first.on('notice', collect);
      try {
        // auto_explain's plans of the triggers' own statements, each sent to this client as it runs
        await first.query(`LOAD 'auto_explain'`);
        await first.query('SET auto_explain.log_min_duration = 0');
        await first.query('SET auto_explain.log_analyze = on');
        await first.query('SET auto_explain.log_nested_statements = on');
        await first.query('SET client_min_messages = log');
        await statements();
      } finally {
        await first.query('SET auto_explain.log_min_duration = -1');
        await first.query('RESET client_min_messages');
        first.off('notice', collect);
      }
      expect(counts).toHaveLength(STATEMENTS);
      return counts.flatMap((plan) =>
        [
          ...plan.matchAll(
            /Function Scan on \w+ +\(cost=[\d.]+ rows=(\d+) .*?\(actual time=[\d.]+ rows=(\d+)/g,
          ),
        ].map(([, planned, read]) => ({ planned: Number(planned), read: Number(read) })),
      );
    }
    const asRead = (arrays: { planned: number; read: number }[]) =>
      arrays.map(() => ({ planned: PER_STATEMENT, read: PER_STATEMENT }));

    it('counts each statement’s settlements in one pass, however often the session has run it', async () => {
      await apply(
        on(second),
        world,
        { op: 'insert settlements', count: STATEMENTS * PER_STATEMENT, gross: 1000 },
        0,
      );
      const arrays = await arraysCounted(async () => {
        for (let n = 0; n < STATEMENTS; n++)
          await first.query(
            `INSERT INTO provider_invoices (provider_invoice_id, amount_cents, invoice_date, settlement_id)
             SELECT 'FT PLAN/' || $1 || '-' || b.n, 1000, '2026-01-10', b.id
               FROM (SELECT s.id, row_number() OVER (ORDER BY s.id) AS n FROM settlements s
                      WHERE s.gross_cents = 1000 AND s.id NOT IN (SELECT settlement_id FROM provider_invoices
                                                                  WHERE settlement_id IS NOT NULL)) b
              WHERE b.n <= $2`,
            [n, PER_STATEMENT],
          );
      });
      expect(arrays.length).toBeGreaterThanOrEqual(STATEMENTS);
      expect(arrays).toEqual(asRead(arrays));
      await expectKeptEqualsRecount(on(first), 'eight statements billing 300 settlements each');
    });

    it('counts each statement’s paid invoices in one pass, however often the session has run it', async () => {
      await first.query(
        `INSERT INTO provider_invoices (provider_invoice_id, amount_cents, invoice_date)
         SELECT 'FT PAID/' || g, 1000, '2026-01-10' FROM generate_series(1, $1::int) g`,
        [STATEMENTS * PER_STATEMENT],
      );
      await ensureLines(on(first), world);
      // One cent each, a line taking two statements' links at most: no line is matched over its amount.
      const arrays = await arraysCounted(async () => {
        for (let n = 0; n < STATEMENTS; n++)
          await first.query(
            `INSERT INTO statement_line_matches (statement_line_id, kind, invoice_id, state, allocated_cents)
             SELECT (SELECT id FROM statement_lines WHERE line_number = $1 % 5 + 1), 'INVOICE', i.id, 'MATCHED', 1
               FROM provider_invoices i
              WHERE i.provider_invoice_id LIKE 'FT PAID/%'
                AND NOT EXISTS (SELECT 1 FROM statement_line_matches m WHERE m.invoice_id = i.id)
              ORDER BY i.id LIMIT $2`,
            [n, PER_STATEMENT],
          );
      });
      expect(arrays.length).toBeGreaterThanOrEqual(STATEMENTS);
      expect(arrays).toEqual(asRead(arrays));
      await expectKeptEqualsRecount(on(first), 'eight statements paying 300 invoices each');
    });
  });

import fc from 'fast-check';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Queryable } from '../../server/db/client';
import { keepingPayoutsFigureOnce } from '../../server/sources/payouts-kept-figure';
import { IMPORT_LOCK } from '../../server/sources/source-import';
import type { DocumentOut, PayoutRowOut, SourceReading } from '../../server/sources/source-reading';
import { insertDocuments, insertPayoutRows } from '../../server/sources/source-rows';
import { payoutBreakdowns } from '../../server/statements/payout-breakdown';
import { queryableOf, type TwoConnections, testDatabaseKinds, twoConnections } from '../support/databases';

/**
 * Migration 0056 (decision 0167): each payout keeps how many distinct settlements its charge rows paid that
 * no invoice bills. After every statement of any sequence of writes — settlements written and deleted (their
 * rows and invoices then name nothing), payouts written, payout rows written naming a settlement or none,
 * relinked, moved to another payout, changed kind, deleted, a payout deleted with its rows (what deleting a
 * payouts file does), invoices written billing a settlement or none, relinked, credit notes naming an
 * invoice, invoices deleted, the invoices truncated — the kept figure equals the one counted here from the
 * rows, and the payout breakdown's invoiced settlements plus the kept figure are all the settlements paid.
 */

/** A slice of a table's rows in id order: `from` (modulo the row count) and the `count` after it. */
const slice = fc.record({ from: fc.nat(40), count: fc.integer({ min: 1, max: 4 }) });
type Slice = { from: number; count: number };

const move = fc.oneof(
  fc.record({ op: fc.constant('insert settlements' as const), count: fc.integer({ min: 1, max: 4 }) }),
  fc.record({ op: fc.constant('delete settlements' as const), rows: slice }),
  fc.record({ op: fc.constant('insert payouts' as const), count: fc.integer({ min: 1, max: 3 }) }),
  fc.record({
    op: fc.constant('insert rows' as const),
    count: fc.integer({ min: 1, max: 6 }),
    kind: fc.constantFrom('charge' as const, 'refund' as const, 'fee' as const),
    // each row's payout, and its settlement (or none), in turn from these
    payouts: slice,
    settles: fc.option(slice),
  }),
  fc.record({ op: fc.constant('relink rows' as const), rows: slice, settlement: fc.option(slice) }),
  fc.record({
    op: fc.constant('set kind' as const),
    rows: slice,
    kind: fc.constantFrom('charge' as const, 'refund' as const),
  }),
  fc.record({ op: fc.constant('move rows' as const), rows: slice, payout: slice }),
  fc.record({ op: fc.constant('delete rows' as const), rows: slice }),
  fc.record({ op: fc.constant('delete payouts' as const), rows: slice }),
  fc.record({
    op: fc.constant('insert invoices' as const),
    count: fc.integer({ min: 1, max: 4 }),
    bills: fc.option(slice),
  }),
  fc.record({ op: fc.constant('bill' as const), rows: slice, settlement: fc.option(slice) }),
  // A credit note names the invoice it corrects and bills no settlement (migration 0047).
  fc.record({ op: fc.constant('insert credit note' as const), invoice: slice }),
  fc.record({ op: fc.constant('delete invoices' as const), rows: slice }),
  fc.record({ op: fc.constant('truncate invoices' as const) }),
);
type Move = typeof move extends fc.Arbitrary<infer T> ? T : never;

const START: Move[] = [
  { op: 'insert settlements', count: 4 },
  { op: 'insert payouts', count: 2 },
  {
    op: 'insert rows',
    count: 6,
    kind: 'charge',
    payouts: { from: 0, count: 2 },
    settles: { from: 0, count: 4 },
  },
];

interface World {
  doctor: string;
  customer: string;
  sourceFile: string;
}

/** The ids of `table`'s rows in the slice: one statement then changes them all. */
const ids = (table: string, rows: Slice) =>
  `SELECT id FROM ${table} ORDER BY id
    OFFSET ${rows.from} % greatest((SELECT count(*) FROM ${table}), 1) LIMIT ${rows.count}`;
const idArray = (table: string, rows: Slice | null) =>
  rows ? `(SELECT array_agg(id) FROM (${ids(table, rows)}) s)` : 'NULL::uuid[]';
const unique = (step: number) => `${step}-${Math.random().toString(36).slice(2, 8)}`;

async function apply(db: Queryable, world: World, m: Move, step: number): Promise<void> {
  switch (m.op) {
    case 'insert settlements':
      await db.query(
        `WITH c AS (INSERT INTO cases (customer_id, professional_id, status, type, price_cents)
                    SELECT $1, $2, 'CLOSED_BY_PROFESSIONAL', 'SINGLE_CASE', 2500 FROM generate_series(1, $3) RETURNING id)
         INSERT INTO settlements (professional_id, case_id, reference_month, gross_cents, fee_cents, net_cents, status)
         SELECT $2, c.id, '2026-01', 2500, 0, 2500, 'AVAILABLE' FROM c`,
        [world.customer, world.doctor, m.count],
      );
      return;
    case 'delete settlements':
      // one a payout row names cannot be deleted (the row's link method would be left without its settlement)
      await db.query(
        `DELETE FROM settlements WHERE id IN (${ids('settlements', m.rows)})
           AND id NOT IN (SELECT settlement_id FROM provider_payout_rows WHERE settlement_id IS NOT NULL)`,
      );
      return;
    case 'insert payouts':
      await db.query(
        `INSERT INTO provider_payouts (provider_payout_id, amount_cents, payout_date, source, source_file_id)
         SELECT 'po_kept_' || $1 || '_' || g, 2500, '2026-01-12', 'STRIPE_PAYOUTS', $2 FROM generate_series(1, $3) g`,
        [unique(step), world.sourceFile, m.count],
      );
      return;
    case 'insert rows':
      await db.query(
        `WITH named AS (SELECT ${idArray('provider_payouts', m.payouts)} AS payouts,
                               ${idArray('settlements', m.settles)} AS settlements),
              made AS (SELECT g, named.payouts[1 + (g - 1) % cardinality(named.payouts)] AS payout_id,
                              named.settlements[1 + (g - 1) % greatest(cardinality(named.settlements), 1)] AS settlement_id
                         FROM generate_series(1, $3) g, named WHERE cardinality(named.payouts) > 0)
         INSERT INTO provider_payout_rows (source_id, source_file_id, payout_id, category, row_kind, gross_cents,
                                           fee_cents, net_cents, settlement_id, link_method)
         SELECT 'po_kept/txn_' || $1 || '_' || g, $2, payout_id, $4, $4, 2500, 100, 2400, settlement_id,
                CASE WHEN settlement_id IS NOT NULL THEN 'REFERENCE' END
           FROM made`,
        [unique(step), world.sourceFile, m.count, m.kind],
      );
      return;
    case 'relink rows':
      // the method follows the settlement (a constraint), as a link written or taken off
      await db.query(
        `WITH target AS (SELECT ${m.settlement ? `(${ids('settlements', { ...m.settlement, count: 1 })})` : 'NULL::uuid'} AS id)
         UPDATE provider_payout_rows
            SET settlement_id = target.id, link_method = CASE WHEN target.id IS NULL THEN NULL ELSE 'REFERENCE' END
           FROM target
          WHERE provider_payout_rows.id IN (${ids('provider_payout_rows', m.rows)})`,
      );
      return;
    case 'set kind':
      await db.query(
        `UPDATE provider_payout_rows SET row_kind = $1, category = $1 WHERE id IN (${ids('provider_payout_rows', m.rows)})`,
        [m.kind],
      );
      return;
    case 'move rows':
      await db.query(
        `UPDATE provider_payout_rows SET payout_id = (${ids('provider_payouts', { ...m.payout, count: 1 })})
          WHERE id IN (${ids('provider_payout_rows', m.rows)}) AND EXISTS (SELECT 1 FROM provider_payouts)`,
      );
      return;
    case 'delete rows':
      await db.query(`DELETE FROM provider_payout_rows WHERE id IN (${ids('provider_payout_rows', m.rows)})`);
      return;
    case 'delete payouts': {
      const { rows } = await db.query<{ id: string }>(ids('provider_payouts', m.rows));
      const payouts = rows.map((r) => r.id);
      await db.query('DELETE FROM provider_payout_rows WHERE payout_id = ANY($1::uuid[])', [payouts]);
      await db.query('DELETE FROM provider_payouts WHERE id = ANY($1::uuid[])', [payouts]);
      return;
    }
    case 'insert invoices':
      await db.query(
        `WITH billed AS (SELECT ${idArray('settlements', m.bills)} AS ids)
         INSERT INTO provider_invoices (provider_invoice_id, amount_cents, invoice_date, settlement_id)
         SELECT 'FT KEPT/' || $1 || '-' || g, 2500, '2026-01-10', billed.ids[1 + (g - 1) % greatest(cardinality(billed.ids), 1)]
           FROM generate_series(1, $2) g, billed`,
        [unique(step), m.count],
      );
      return;
    case 'bill':
      await db.query(
        `UPDATE provider_invoices
            SET settlement_id = ${m.settlement ? `(${ids('settlements', { ...m.settlement, count: 1 })})` : 'NULL'}
          WHERE id IN (${ids('provider_invoices', m.rows)})`,
      );
      return;
    case 'insert credit note':
      await db.query(
        `INSERT INTO provider_invoices (provider_invoice_id, amount_cents, invoice_date, credited_invoice_id)
         SELECT 'NC KEPT/' || $1, -2500, '2026-01-20', i.id FROM (${ids('provider_invoices', { ...m.invoice, count: 1 })}) i`,
        [unique(step)],
      );
      return;
    case 'delete invoices':
      await db.query(`DELETE FROM provider_invoices WHERE id IN (${ids('provider_invoices', m.rows)})`);
      return;
    case 'truncate invoices':
      await db.query('TRUNCATE provider_invoices CASCADE');
      return;
  }
}

/** Each payout's settlements without invoice, counted here from the rows (decision 0156's rule). */
async function recounted(db: Queryable): Promise<Record<string, number>> {
  const payouts = await db.query<{ id: string }>('SELECT id FROM provider_payouts');
  const rows = await db.query<{ payout_id: string; settlement_id: string }>(
    `SELECT payout_id, settlement_id FROM provider_payout_rows WHERE row_kind = 'charge' AND settlement_id IS NOT NULL`,
  );
  const invoices = await db.query<{ settlement_id: string | null }>(
    'SELECT settlement_id FROM provider_invoices',
  );
  const billed = new Set(invoices.rows.map((i) => i.settlement_id));
  const unbilled = new Map(payouts.rows.map((p) => [p.id, new Set<string>()]));
  for (const row of rows.rows)
    if (!billed.has(row.settlement_id)) unbilled.get(row.payout_id)!.add(row.settlement_id);
  return Object.fromEntries([...unbilled].map(([id, settlements]) => [id, settlements.size]));
}

async function kept(db: Queryable): Promise<Record<string, number>> {
  const { rows } = await db.query<{ id: string; settlements_without_invoice: number }>(
    'SELECT id, settlements_without_invoice FROM provider_payouts',
  );
  return Object.fromEntries(rows.map((r) => [r.id, r.settlements_without_invoice]));
}

/** The breakdown's own count of invoiced settlements and the kept figure add up to every settlement paid. */
async function expectBreakdownAgrees(db: Queryable, after: string): Promise<void> {
  const { rows } = await db.query<{ payout_id: string; paid: number }>(
    `SELECT p.id AS payout_id, count(DISTINCT r.settlement_id) FILTER (WHERE r.row_kind = 'charge')::int AS paid
       FROM provider_payouts p JOIN provider_payout_rows r ON r.payout_id = p.id GROUP BY p.id`,
  );
  const breakdowns = await payoutBreakdowns(
    db,
    rows.map((r) => r.payout_id),
  );
  for (const row of rows) {
    const breakdown = breakdowns.get(row.payout_id)!;
    expect(breakdown.invoicedSettlements + breakdown.settlementsWithoutInvoice, `paid after ${after}`).toBe(
      row.paid,
    );
  }
}

async function expectKeptEqualsRecount(db: Queryable, after: string): Promise<void> {
  expect(await kept(db), `kept after ${after}`).toEqual(await recounted(db));
  await expectBreakdownAgrees(db, after);
}

async function makeWorld(db: Queryable): Promise<World> {
  const one = async (sql: string, params: unknown[] = []) =>
    (await db.query<{ id: string }>(sql, params)).rows[0]!.id;
  const user = (email: string, role: string) =>
    one('INSERT INTO users (role, email) VALUES ($1, $2) RETURNING id', [role, email]);
  const doctor = await user('payouts.pro@example.com', 'PROFESSIONAL');
  const customer = await user('payouts.customer@example.com', 'CUSTOMER');
  const stored = await one(
    `INSERT INTO stored_files (original_name, content_type, size_bytes, sha256, storage_key)
     VALUES ('payouts.csv', 'text/csv', 1, repeat('a', 64), 'x/payouts') RETURNING id`,
  );
  const sourceFile = await one(
    `INSERT INTO source_files (kind, file_id, file_name, sha256, row_count, new_rows, duplicates_skipped,
                               total_cents, control_totals_checked, summary, imported_at)
     VALUES ('STRIPE_PAYOUTS', $1, 'payouts.csv', repeat('e', 64), 0, 0, 0, 0, true, '{}', now()) RETURNING id`,
    [stored],
  );
  return { doctor, customer, sourceFile };
}

const emptied = (db: Queryable) =>
  db.query('TRUNCATE provider_payout_rows, provider_payouts, provider_invoices, settlements, cases CASCADE');

describe.each(testDatabaseKinds())(
  'payouts’ settlements without invoice kept by migration 0056 on $name',
  (kind) => {
    let db: Database;
    let world: World;
    beforeAll(async () => {
      db = await kind.open();
      world = await makeWorld(db);
    }, 120_000);
    afterAll(async () => db?.close());

    it('equal a recount and agree with the breakdown after every statement of any sequence of writes', async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(move, { minLength: 1, maxLength: 30 }), async (moves) => {
          await emptied(db);
          // every run starts from payouts whose charges paid settlements, so that the moves meet them
          for (const m of START) await apply(db, world, m, -1);
          for (const [step, m] of moves.entries()) {
            await apply(db, world, m, step);
            await expectKeptEqualsRecount(db, `${step}: ${JSON.stringify(m)}`);
          }
        }),
        { numRuns: 60 },
      );
    }, 300_000);

    it('a settlement paid twice by one payout counts once; its invoice, its rows unlinked and a TRUNCATE move it', async () => {
      await emptied(db);
      await apply(db, world, { op: 'insert settlements', count: 2 }, 0);
      await apply(db, world, { op: 'insert payouts', count: 1 }, 1);
      const charges = { from: 0, count: 1 };
      // four charges of one payout over the two settlements: two settlements without invoice, not four
      await apply(
        db,
        world,
        { op: 'insert rows', count: 4, kind: 'charge', payouts: charges, settles: { from: 0, count: 2 } },
        2,
      );
      expect(Object.values(await kept(db))).toEqual([2]);
      await apply(db, world, { op: 'insert invoices', count: 1, bills: { from: 0, count: 1 } }, 3);
      expect(Object.values(await kept(db))).toEqual([1]);
      // a credit note on that invoice bills nothing: the settlement stays invoiced
      await apply(db, world, { op: 'insert credit note', invoice: { from: 0, count: 1 } }, 4);
      expect(Object.values(await kept(db))).toEqual([1]);
      // the rows of the settlement no invoice bills taken off it: nothing left without invoice
      await db.query(
        `UPDATE provider_payout_rows SET settlement_id = NULL, link_method = NULL
        WHERE settlement_id NOT IN (SELECT settlement_id FROM provider_invoices WHERE settlement_id IS NOT NULL)`,
      );
      expect(Object.values(await kept(db))).toEqual([0]);
      await apply(db, world, { op: 'truncate invoices' }, 5);
      expect(Object.values(await kept(db))).toEqual([1]);
      await expectKeptEqualsRecount(db, 'the fixed sequence');
    });
  },
);

// The product's two imports at once over the same settlements, on two connections: whichever writes second
// waits for the first's commit (the settlements' lock) and counts what it left. Without the payout rows'
// FOR SHARE lock each counts only its own side: the payout keeps a settlement the invoice bills.
const serverUrl = process.env.TEST_DATABASE_URL;
if (serverUrl)
  describe('payouts’ settlements without invoice under concurrency on postgres', () => {
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

    /** Three paid cases (their settlements), and what each import's file says of them. */
    async function threeCases(round: string) {
      const { rows } = await first.query<{ case_id: string }>(
        `WITH c AS (INSERT INTO cases (customer_id, professional_id, status, type, price_cents)
                    SELECT $1, $2, 'CLOSED_BY_PROFESSIONAL', 'SINGLE_CASE', 2500 FROM generate_series(1, 3) RETURNING id)
         INSERT INTO settlements (professional_id, case_id, reference_month, gross_cents, fee_cents, net_cents, status)
         SELECT $2, c.id, '2026-01', 2500, 0, 2500, 'AVAILABLE' FROM c RETURNING case_id`,
        [world.customer, world.doctor],
      );
      const cases = rows.map((r) => r.case_id);
      const payoutId = `po_race_${round}`;
      const payouts = {
        payouts: [
          {
            providerId: payoutId,
            date: '2026-01-12',
            grossCents: 7500,
            feeCents: 300,
            netCents: 7200,
            amountChecked: true,
          },
        ],
        payoutRows: cases.map(
          (caseId, n): PayoutRowOut => ({
            sourceId: `${payoutId}/txn_${n}`,
            providerPayoutId: payoutId,
            category: 'charge',
            rowKind: 'charge',
            grossCents: 2500,
            feeCents: 100,
            netCents: 2400,
            chargeId: null,
            paymentIntentId: null,
            reference: caseId,
            description: null,
            occurredOn: '2026-01-10',
            caseReference: caseId,
          }),
        ),
      } as unknown as SourceReading;
      // the invoicing program's file bills two of the three
      const invoices = {
        documents: cases.slice(0, 2).map(
          (caseId, n): DocumentOut => ({
            sourceId: `FR RACE${round}/${n}|ATCUD-${round}-${n}`,
            invoiceNo: `FR RACE${round}/${n}`,
            atcud: `ATCUD-${round}-${n}`,
            type: 'FR',
            crediting: false,
            status: 'N',
            date: '2026-01-10',
            customerTaxId: '999999990',
            grossCents: 2500,
            netCents: 2500,
            taxCents: 0,
            amountCents: 2500,
            caseReference: caseId,
            creditsInvoiceNo: null,
          }),
        ),
      } as unknown as SourceReading;
      const importPayouts = (client: pg.Client) =>
        insertPayoutRows(
          on(client),
          world.sourceFile,
          'STRIPE_PAYOUTS',
          payouts,
          () => true,
          () => {},
        );
      const importInvoices = (client: pg.Client) =>
        insertDocuments(
          on(client),
          world.sourceFile,
          invoices,
          () => true,
          () => {},
        );
      const settlementsWithoutInvoice = async () =>
        (
          await first.query<{ settlements_without_invoice: number }>(
            'SELECT settlements_without_invoice FROM provider_payouts WHERE provider_payout_id = $1',
            [payoutId],
          )
        ).rows[0]!.settlements_without_invoice;
      /** The payouts file as the import writes it: under the imports' lock, its payouts counted at its end. */
      const importPayoutsFile = async (client: pg.Client) => {
        await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [IMPORT_LOCK]);
        await keepingPayoutsFigureOnce(on(client), world.sourceFile, 'STRIPE_PAYOUTS', () =>
          importPayouts(client),
        );
      };
      return { importPayouts, importInvoices, importPayoutsFile, settlementsWithoutInvoice };
    }

    // Two writers of one payout's rows naming the same settlement: the second waits on the payout's row and
    // finds the first's row, so the pair appears once (without that lock each counted it new: 2).
    it('two transactions adding a charge of one payout for one settlement count it once', async () => {
      await apply(on(first), world, { op: 'insert payouts', count: 1 }, 0);
      const { rows } = await first.query<{ id: string }>(
        `WITH c AS (INSERT INTO cases (customer_id, professional_id, status, type, price_cents)
                    VALUES ($1, $2, 'CLOSED_BY_PROFESSIONAL', 'SINGLE_CASE', 2500) RETURNING id)
         INSERT INTO settlements (professional_id, case_id, reference_month, gross_cents, fee_cents, net_cents, status)
         SELECT $2, c.id, '2026-01', 2500, 0, 2500, 'AVAILABLE' FROM c RETURNING id`,
        [world.customer, world.doctor],
      );
      const payout = (
        await first.query<{ id: string }>(
          `SELECT id FROM provider_payouts WHERE provider_payout_id LIKE 'po_kept_0-%' ORDER BY created_at DESC LIMIT 1`,
        )
      ).rows[0]!.id;
      const addCharge = (client: pg.Client, n: number) =>
        client.query(
          `INSERT INTO provider_payout_rows (source_id, source_file_id, payout_id, category, row_kind, gross_cents,
                                             fee_cents, net_cents, settlement_id, link_method)
           VALUES ($1, $2, $3, 'charge', 'charge', 2500, 100, 2400, $4, 'REFERENCE')`,
          [`po_twice/txn_${n}`, world.sourceFile, payout, rows[0]!.id],
        );
      await first.query('BEGIN');
      await addCharge(first, 1);
      await second.query('BEGIN');
      let secondDone = false;
      const other = addCharge(second, 2).then(() => {
        secondDone = true;
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(secondDone).toBe(false);
      await first.query('COMMIT');
      await other;
      await second.query('COMMIT');
      expect((await kept(on(first)))[payout]).toBe(1);
      await expectKeptEqualsRecount(on(first), 'two charges of one payout for one settlement at once');
    });

    for (const firstImport of ['invoices', 'payouts'] as const)
      it(`the ${firstImport} imported first, uncommitted, and the other import meanwhile: counted once`, async () => {
        const round = firstImport;
        const { importPayouts, importInvoices, settlementsWithoutInvoice } = await threeCases(round);
        await first.query('BEGIN');
        await (firstImport === 'invoices' ? importInvoices(first) : importPayouts(first));
        await second.query('BEGIN');
        let secondDone = false;
        const other = (firstImport === 'invoices' ? importPayouts(second) : importInvoices(second)).then(
          (counts) => {
            secondDone = true;
            return counts;
          },
        );
        await new Promise((resolve) => setTimeout(resolve, 300));
        // the second import waits on the settlements the first holds
        expect(secondDone).toBe(false);
        await first.query('COMMIT');
        await other;
        await second.query('COMMIT');
        expect(await settlementsWithoutInvoice()).toBe(1);
        await expectKeptEqualsRecount(on(first), `${firstImport} first`);
      });
    // A payouts import counts its payouts once, at its end, with the triggers standing aside; any other
    // writer of invoices goes through them. Whichever starts second waits for the other's commit (the
    // imports' lock, taken shared by the triggers), so the payout's figure is 1 either way. Without the
    // triggers' shared lock, the invoices written while the import is uncommitted see none of its rows and
    // the import's recount none of them: the payout keeps 3.
    for (const firstWriter of ['import', 'invoices'] as const)
      it(`a payouts import and an invoices writer beside it, the ${firstWriter} first: counted once`, async () => {
        const round = `beside-${firstWriter}`;
        const { importInvoices, importPayoutsFile, settlementsWithoutInvoice } = await threeCases(round);
        await first.query('BEGIN');
        await (firstWriter === 'import' ? importPayoutsFile(first) : importInvoices(first));
        await second.query('BEGIN');
        let secondDone = false;
        const other = (firstWriter === 'import' ? importInvoices(second) : importPayoutsFile(second)).then(
          () => {
            secondDone = true;
          },
        );
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(secondDone).toBe(false);
        await first.query('COMMIT');
        await other;
        await second.query('COMMIT');
        expect(await settlementsWithoutInvoice()).toBe(1);
        await expectKeptEqualsRecount(on(first), `${firstWriter} first`);
      });
  });

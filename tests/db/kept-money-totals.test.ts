import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase, type Queryable } from '../../server/db/client';
import { migrate } from '../../server/db/migrate';
import { createPostgresDatabase, testDatabaseKinds } from '../support/databases';

/**
 * Migration 0039's kept totals (docs/decisions/0138) equal a recount after every statement that moves
 * them: settlements written, moved between statuses, months and doctors, adjusted and deleted, several
 * rows per statement; a doctor renamed (the name kept beside their doctor-months); SEPA links made,
 * made not live, made live again and deleted (also by deleting their transfer); statement lines
 * written, changed and deleted; and a TRUNCATE. The recount here is the rows themselves, read back and
 * added up in TypeScript, not the migration's SQL.
 */

const STATUSES = ['READY_TO_SETTLE', 'AVAILABLE', 'SETTLED', 'PAID', 'REFUNDED', 'REFUNDED_PAID'] as const;
const MONTHS = ['2026-01', '2026-02'] as const;
const LINE_KINDS = ['transfer', 'return', 'fee', 'other'] as const;
// SUGGESTED and MATCHED need a match row (a deferred check); the totals do not care which status it is.
const LINE_STATUSES = ['UNMATCHED', 'DISCREPANCY', 'IGNORED'] as const;

/** Half of the statuses drawn are SETTLED: the stage that SEPA links move in and out of. */
const status = fc.oneof(fc.constant('SETTLED' as const), fc.constantFrom(...STATUSES));

/** A slice of a table's rows in id order: `from` (modulo the row count) and the `count` after it. */
const slice = fc.record({ from: fc.nat(40), count: fc.integer({ min: 1, max: 4 }) });
type Slice = { from: number; count: number };

const move = fc.oneof(
  fc.record({
    op: fc.constant('insert settlements' as const),
    count: fc.integer({ min: 1, max: 4 }),
    doctor: fc.nat(2),
    month: fc.constantFrom(...MONTHS),
    status,
    net: fc.integer({ min: 1, max: 50_000 }),
    fee: fc.nat(1_000),
    adjusted: fc.option(fc.nat(60_000)),
    subscription: fc.boolean(),
  }),
  fc.record({ op: fc.constant('set status' as const), rows: slice, status }),
  fc.record({ op: fc.constant('adjust' as const), rows: slice, adjusted: fc.option(fc.nat(60_000)) }),
  fc.record({
    op: fc.constant('move' as const),
    rows: slice,
    doctor: fc.nat(2),
    month: fc.constantFrom(...MONTHS),
  }),
  fc.record({ op: fc.constant('delete settlements' as const), rows: slice }),
  fc.record({
    op: fc.constant('rename doctor' as const),
    doctor: fc.nat(2),
    name: fc.constantFrom<string>('Ana', 'Bruno', 'Zé'),
  }),
  fc.record({ op: fc.constant('link' as const), rows: slice }),
  fc.record({ op: fc.constant('set live' as const), rows: slice, live: fc.boolean() }),
  fc.record({ op: fc.constant('delete links' as const), rows: slice }),
  fc.record({ op: fc.constant('delete transfer' as const), which: fc.nat(40) }),
  fc.record({
    op: fc.constant('insert lines' as const),
    count: fc.integer({ min: 1, max: 5 }),
    kind: fc.constantFrom(...LINE_KINDS),
    status: fc.constantFrom(...LINE_STATUSES),
    amount: fc.integer({ min: -100_000, max: 100_000 }),
  }),
  fc.record({
    op: fc.constant('change lines' as const),
    rows: slice,
    kind: fc.option(fc.constantFrom(...LINE_KINDS)),
    status: fc.option(fc.constantFrom(...LINE_STATUSES)),
    amount: fc.option(fc.integer({ min: -100_000, max: 100_000 })),
  }),
  fc.record({ op: fc.constant('delete lines' as const), rows: slice }),
);
type Move = typeof move extends fc.Arbitrary<infer T> ? T : never;

interface World {
  doctors: string[];
  customer: string;
  statementFile: string;
}

/** The ids of `table`'s rows in the slice (its `where` first): one statement then changes them all. */
const ids = (table: string, rows: Slice, where = 'true') =>
  `SELECT id FROM ${table} WHERE ${where} ORDER BY id
    OFFSET ${rows.from} % greatest((SELECT count(*) FROM ${table} WHERE ${where}), 1) LIMIT ${rows.count}`;

async function apply(db: Queryable, world: World, m: Move, step: number): Promise<void> {
  switch (m.op) {
    case 'insert settlements': {
      const doctor = world.doctors[m.doctor]!;
      const owner = m.subscription
        ? `, o AS (INSERT INTO subscription_payments (customer_id, professional_id, amount_cents, period_start, period_end, paid_at)
                   SELECT $1, $2, 1000, now(), now() + interval '30 days', now() FROM generate_series(1, $3) RETURNING id, NULL::uuid AS case_id, id AS payment_id)`
        : `, c AS (INSERT INTO cases (customer_id, professional_id, status, type, price_cents)
                   SELECT $1, $2, 'CLOSED_BY_PROFESSIONAL', 'SINGLE_CASE', 2000 FROM generate_series(1, $3) RETURNING id),
             o AS (SELECT id, id AS case_id, NULL::uuid AS payment_id FROM c)`;
      await db.query(
        `WITH n AS (SELECT 1)${owner}
         INSERT INTO settlements (professional_id, case_id, subscription_payment_id, reference_month, gross_cents,
                                  fee_cents, net_cents, adjusted_cents, adjustment_note, status)
         SELECT $2, o.case_id, o.payment_id, $4, $5::int + $6::int, $6, $5, $7, CASE WHEN $7::int IS NULL THEN NULL ELSE 'test' END, $8
           FROM o`,
        [world.customer, doctor, m.count, m.month, m.net, m.fee, m.adjusted, m.status],
      );
      return;
    }
    case 'set status':
      await db.query(`UPDATE settlements SET status = $1 WHERE id IN (${ids('settlements', m.rows)})`, [
        m.status,
      ]);
      return;
    case 'adjust':
      await db.query(
        `UPDATE settlements SET adjusted_cents = $1, adjustment_note = CASE WHEN $1::int IS NULL THEN NULL ELSE 'test' END
          WHERE id IN (${ids('settlements', m.rows)})`,
        [m.adjusted],
      );
      return;
    case 'move':
      await db.query(
        `UPDATE settlements SET professional_id = $1, reference_month = $2 WHERE id IN (${ids('settlements', m.rows)})`,
        [world.doctors[m.doctor], m.month],
      );
      return;
    case 'rename doctor':
      await db.query('UPDATE users SET name = $2 WHERE id = $1', [world.doctors[m.doctor], m.name]);
      return;
    case 'delete settlements': {
      const unlinked = `NOT EXISTS (SELECT 1 FROM sepa_transaction_settlements l WHERE l.settlement_id = settlements.id)
        AND NOT EXISTS (SELECT 1 FROM provider_invoices i WHERE i.settlement_id = settlements.id)`;
      await db.query(`DELETE FROM settlements WHERE id IN (${ids('settlements', m.rows, unlinked)})`);
      return;
    }
    case 'link': {
      // A new file with one transfer (one per file and doctor), linked live to settlements that have no
      // live link (the unique key's rule).
      const name = `MSG-KEPT-${step}-${Math.random().toString(36).slice(2, 10)}`;
      const { rows } = await db.query<{ id: string; sepa_file_id: string }>(
        `WITH f AS (
           INSERT INTO sepa_files (msg_id, payment_info_id, amount_cents, transaction_count, reference_month,
                                   execution_date, debtor_name, debtor_iban)
           VALUES ($1, $1 || '-P1', 100, 1, '2026-01', '2026-02-03', 'Debtor', 'PT50003506510000123456714') RETURNING id)
         INSERT INTO sepa_transactions (sepa_file_id, end_to_end_id, professional_id, amount_cents, creditor_name,
                                        creditor_iban, remittance_information)
         SELECT f.id, $1 || '-1', $2, 100, 'Pro', 'PT50003506510000123456714', 'Consultas' FROM f
         RETURNING id, sepa_file_id`,
        [name, world.doctors[0]],
      );
      // SETTLED ones, as a file takes them (any other status is linked too when there is none).
      const free = `NOT EXISTS (SELECT 1 FROM sepa_transaction_settlements l WHERE l.settlement_id = settlements.id AND l.live)
        AND (status = 'SETTLED' OR NOT EXISTS (SELECT 1 FROM settlements o WHERE o.status = 'SETTLED'))`;
      await db.query(
        `INSERT INTO sepa_transaction_settlements (sepa_transaction_id, sepa_file_id, settlement_id, amount_cents)
         SELECT $1, $2, id, 100 FROM (${ids('settlements', m.rows, free)}) s`,
        [rows[0]!.id, rows[0]!.sepa_file_id],
      );
      return;
    }
    case 'set live': {
      // Made live again only where the settlement has no other live link.
      const allowed = m.live
        ? `NOT live AND NOT EXISTS (SELECT 1 FROM sepa_transaction_settlements o
             WHERE o.settlement_id = sepa_transaction_settlements.settlement_id AND o.live)`
        : 'live';
      await db.query(
        `UPDATE sepa_transaction_settlements SET live = $1
          WHERE (sepa_transaction_id, settlement_id) IN (
            SELECT sepa_transaction_id, settlement_id FROM sepa_transaction_settlements WHERE ${allowed}
             ORDER BY settlement_id, sepa_transaction_id
            OFFSET ${m.rows.from} % greatest((SELECT count(*) FROM sepa_transaction_settlements WHERE ${allowed}), 1)
             LIMIT ${m.live ? 1 : m.rows.count})`,
        [m.live],
      );
      return;
    }
    case 'delete links':
      await db.query(
        `DELETE FROM sepa_transaction_settlements WHERE (sepa_transaction_id, settlement_id) IN (
           SELECT sepa_transaction_id, settlement_id FROM sepa_transaction_settlements ORDER BY settlement_id, sepa_transaction_id
           OFFSET ${m.rows.from} % greatest((SELECT count(*) FROM sepa_transaction_settlements), 1) LIMIT ${m.rows.count})`,
      );
      return;
    case 'delete transfer':
      await db.query(
        `DELETE FROM sepa_transactions WHERE id IN (SELECT id FROM sepa_transactions ORDER BY id
           OFFSET ${m.which} % greatest((SELECT count(*) FROM sepa_transactions), 1) LIMIT 1)`,
      );
      return;
    case 'insert lines':
      await db.query(
        `INSERT INTO statement_lines (statement_file_id, line_number, dedup_key, bank_amount_cents, bank_date, kind, status)
         SELECT $1, g, md5(random()::text || g), $2, '2026-01-05', $3, $4 FROM generate_series(1, $5) g`,
        [world.statementFile, m.amount, m.kind, m.status, m.count],
      );
      return;
    case 'change lines':
      await db.query(
        `UPDATE statement_lines SET kind = coalesce($1, kind), status = coalesce($2, status),
                bank_amount_cents = coalesce($3, bank_amount_cents)
          WHERE id IN (${ids('statement_lines', m.rows)})`,
        [m.kind, m.status, m.amount],
      );
      return;
    case 'delete lines':
      await db.query(`DELETE FROM statement_lines WHERE id IN (${ids('statement_lines', m.rows)})`);
      return;
  }
}

type Sums = Record<string, number>;
const add = (map: Map<string, Sums>, key: string, values: Sums) => {
  const sums = map.get(key) ?? {};
  for (const [name, value] of Object.entries(values)) sums[name] = (sums[name] ?? 0) + value;
  map.set(key, sums);
};

/** The settlements' doctor-months per stage, added up here from the rows and their live links. */
async function recountedDoctorMonths(db: Queryable): Promise<Record<string, Sums>> {
  const { rows } = await db.query<{
    status: string;
    reference_month: string;
    professional_id: string;
    name: string;
    case_id: string | null;
    gross_cents: number;
    fee_cents: number;
    net_cents: number;
    adjusted_cents: number | null;
    live: boolean;
  }>(
    `SELECT s.status, s.reference_month, s.professional_id, (SELECT u.name FROM users u WHERE u.id = s.professional_id), s.case_id, s.gross_cents, s.fee_cents, s.net_cents,
            s.adjusted_cents, array(SELECT l.live FROM sepa_transaction_settlements l WHERE l.settlement_id = s.id) @> ARRAY[true] AS live
       FROM settlements s`,
  );
  const expected = new Map<string, Sums>();
  for (const s of rows) {
    const stage =
      s.status === 'READY_TO_SETTLE' || s.status === 'AVAILABLE'
        ? 'TO_PROCESS'
        : s.status === 'SETTLED' && !s.live
          ? 'WAITING_FOR_FILE'
          : null;
    if (!stage) continue;
    add(expected, `${stage} ${s.reference_month} ${s.professional_id} ${s.name}`, {
      settlements: 1,
      cases: s.case_id ? 1 : 0,
      gross: s.gross_cents,
      fee: s.fee_cents,
      net: s.net_cents,
      payable: s.adjusted_cents ?? s.net_cents,
    });
  }
  return Object.fromEntries(expected);
}

async function keptDoctorMonths(db: Queryable): Promise<Record<string, Sums>> {
  const { rows } = await db.query<Record<string, string>>(
    `SELECT stage, reference_month, professional_id, professional_name, settlements::int, cases::int, gross_cents::int AS gross,
            fee_cents::int AS fee, net_cents::int AS net, payable_cents::int AS payable FROM settlement_doctor_months`,
  );
  return Object.fromEntries(
    rows.map((r) => [
      `${r.stage} ${r.reference_month} ${r.professional_id} ${r.professional_name}`,
      {
        settlements: Number(r.settlements),
        cases: Number(r.cases),
        gross: Number(r.gross),
        fee: Number(r.fee),
        net: Number(r.net),
        payable: Number(r.payable),
      },
    ]),
  );
}

/** Lines per kind and status that have any, from the lines; and the kept rows added up per kind and status. */
async function recountedLines(db: Queryable): Promise<Record<string, Sums>> {
  const { rows } = await db.query<{ kind: string; status: string; bank_amount_cents: string }>(
    'SELECT kind, status, bank_amount_cents FROM statement_lines',
  );
  const expected = new Map<string, Sums>();
  for (const l of rows)
    add(expected, `${l.kind} ${l.status}`, { lines: 1, cents: Number(l.bank_amount_cents) });
  return Object.fromEntries(expected);
}

async function keptLines(db: Queryable): Promise<Record<string, Sums>> {
  const { rows } = await db.query<{ kind: string; status: string; lines: string; cents: string }>(
    `SELECT kind, status, sum(lines)::text AS lines, sum(amount_cents)::text AS cents
       FROM statement_line_totals GROUP BY 1, 2 HAVING sum(lines) <> 0 OR sum(amount_cents) <> 0`,
  );
  return Object.fromEntries(
    rows.map((r) => [`${r.kind} ${r.status}`, { lines: Number(r.lines), cents: Number(r.cents) }]),
  );
}

async function expectKeptEqualsRecount(db: Queryable, after: string): Promise<void> {
  expect(await keptDoctorMonths(db), `doctor-months after ${after}`).toEqual(await recountedDoctorMonths(db));
  expect(await keptLines(db), `statement lines after ${after}`).toEqual(await recountedLines(db));
}

async function makeWorld(db: Queryable): Promise<World> {
  const one = async (sql: string, params: unknown[] = []) =>
    (await db.query<{ id: string }>(sql, params)).rows[0]!.id;
  const user = (email: string, role: string) =>
    one('INSERT INTO users (role, email) VALUES ($1, $2) RETURNING id', [role, email]);
  const doctors = [
    await user('kept.pro.1@example.com', 'PROFESSIONAL'),
    await user('kept.pro.2@example.com', 'PROFESSIONAL'),
    await user('kept.pro.3@example.com', 'PROFESSIONAL'),
  ];
  const customer = await user('kept.customer@example.com', 'CUSTOMER');
  const stored = await one(
    `INSERT INTO stored_files (original_name, content_type, size_bytes, sha256, storage_key)
     VALUES ('extrato.csv', 'text/csv', 1, repeat('a', 64), 'x/kept') RETURNING id`,
  );
  const statementFile = await one(
    `INSERT INTO statement_files (file_id, format, sha256) VALUES ($1, 'CSV', repeat('b', 64)) RETURNING id`,
    [stored],
  );
  return { doctors, customer, statementFile };
}

/** Everything the moves write, emptied between runs (TRUNCATE: the totals are counted again). */
const emptied = async (db: Queryable) =>
  db.query(
    'TRUNCATE statement_lines, sepa_transaction_settlements, sepa_transactions, sepa_files, provider_invoices, settlements, subscription_payments, cases CASCADE',
  );

describe.each(testDatabaseKinds())('totals kept by migration 0039 on $name', (kind) => {
  let db: Database;
  let world: World;
  beforeAll(async () => {
    db = await kind.open();
    world = await makeWorld(db);
  }, 120_000);
  afterAll(async () => db?.close());

  it('equal a recount after every statement of any sequence of moves', async () => {
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

  it('keep no doctor-month whose settlements all left it, count again after a TRUNCATE of the links, follow a rename', async () => {
    await emptied(db);
    await apply(
      db,
      world,
      {
        op: 'insert settlements',
        count: 3,
        doctor: 0,
        month: '2026-01',
        status: 'SETTLED',
        net: 1000,
        fee: 100,
        adjusted: null,
        subscription: false,
      },
      0,
    );
    await apply(db, world, { op: 'link', rows: { from: 0, count: 3 } }, 1);
    expect(await keptDoctorMonths(db)).toEqual({});
    await db.query('TRUNCATE sepa_transaction_settlements');
    await expectKeptEqualsRecount(db, 'TRUNCATE of the links');
    await apply(db, world, { op: 'rename doctor', doctor: 0, name: `Renamed ${Date.now()}` }, 2);
    await expectKeptEqualsRecount(db, 'a rename');
    expect(Object.values(await keptDoctorMonths(db))).toEqual([
      { settlements: 3, cases: 3, gross: 3300, fee: 300, net: 3000, payable: 3000 },
    ]);
  });
});

// Two connections at once: a statement import's lines, uncommitted, and an admin's action on a line.
const serverUrl = process.env.TEST_DATABASE_URL;
if (serverUrl)
  describe('statement-line totals under concurrency on postgres', () => {
    let created: Awaited<ReturnType<typeof createPostgresDatabase>>;
    let importing: pg.Client;
    let acting: pg.Client;
    const on = (client: pg.Client) =>
      ({
        query: (sql: string, params?: readonly unknown[]) => client.query(sql, params as unknown[]),
      }) as Queryable;
    let world: World;
    beforeAll(async () => {
      created = await createPostgresDatabase(serverUrl);
      const db = await openDatabase({ databaseUrl: created.url });
      await migrate(db);
      await db.close();
      importing = new pg.Client({ connectionString: created.url });
      acting = new pg.Client({ connectionString: created.url });
      await importing.connect();
      await acting.connect();
      // Waiting for the import's commit fails the test (55P03) instead of passing slowly.
      await acting.query(`SET lock_timeout = '3s'`);
      world = await makeWorld(on(importing));
    });
    afterAll(async () => {
      await importing?.end();
      await acting?.end();
      await created?.drop();
    });

    it('an action on a line does not wait for an import in flight, and both count once committed', async () => {
      const line = { op: 'insert lines', kind: 'transfer', status: 'UNMATCHED', amount: -2500 } as const;
      await apply(on(importing), world, { ...line, count: 2 }, 0);
      await importing.query('BEGIN');
      await apply(on(importing), world, { ...line, count: 5 }, 1);
      // The import holds a totals row of (transfer, UNMATCHED); the action moves a line out of it.
      const acted = await acting
        .query(
          `UPDATE statement_lines SET status = 'IGNORED'
            WHERE id = (SELECT id FROM statement_lines ORDER BY line_number LIMIT 1)`,
        )
        .then(
          () => 'done',
          (error: { code?: string }) => error.code ?? String(error),
        );
      expect(acted).toBe('done');
      await importing.query('COMMIT');
      await expectKeptEqualsRecount(on(acting), 'both committed');
      expect(await keptLines(on(acting))).toEqual({
        'transfer UNMATCHED': { lines: 6, cents: -15_000 },
        'transfer IGNORED': { lines: 1, cents: -2500 },
      });
      await importing.query('BEGIN');
      await apply(on(importing), world, { ...line, count: 3 }, 2);
      await importing.query('ROLLBACK');
      await expectKeptEqualsRecount(on(acting), 'an import rolled back');
    });
  });

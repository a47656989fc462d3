import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextSepaStatus, type SepaEvent, type SepaStatus } from '../../domain/sepa-status';
import {
  nextSettlementStatus,
  type SettlementEvent,
  type SettlementStatus,
} from '../../domain/settlement-status';
import { testDatabaseKinds } from '../support/databases';
import { camt053, importCamt } from './sepa-statement-support';
import {
  acceptedReport,
  expectStatus,
  insertDoctor,
  insertSettlements,
  MONTH,
  newIban,
  payableOf,
  type SepaWorld,
  startSepaWorld,
} from './sepa-support';

/**
 * Random sequences of what moves money on the SEPA side, through the routes the console uses — confirm a
 * doctor's settlement, refund one after payout, generate, delete, mark available / paid / unavailable,
 * a bank's pain.002 accepting or rejecting one transfer (a partial rejection), a statement returning a
 * paid transfer (imported as a camt.053) — with every invariant of issue 11 checked on the database after
 * every step. Only what has no route stays SQL: a case's settlement appearing (AVAILABLE, awaiting the
 * confirmation) and a doctor's new IBAN. Counters of what really happened fail a run that never reached
 * a recovery deduction, a return or a partial rejection.
 */

const SETTLEMENT_EVENTS: SettlementEvent[] = [
  'FUNDS_RELEASED',
  'CONFIRM',
  'INCLUDED_IN_SEPA',
  'SEPA_PAID',
  'SEPA_DELETED',
  'SEPA_UNAVAILABLE',
  'CUSTOMER_REFUNDED',
];
const SEPA_EVENTS: SepaEvent[] = ['HANDED_TO_BANK', 'PAID', 'REJECTED'];
const settlementMoveAllowed = (from: SettlementStatus, to: SettlementStatus, returned: boolean) =>
  from === to ||
  SETTLEMENT_EVENTS.some((e) => nextSettlementStatus(from, e) === to) ||
  (returned && from === 'PAID' && to === 'SETTLED');
const fileMoveAllowed = (from: SepaStatus, to: SepaStatus | 'DELETED') =>
  from === to ||
  (to === 'DELETED' ? from === 'GENERATED' : SEPA_EVENTS.some((e) => nextSepaStatus(from, e) === to));

interface Real {
  world: SepaWorld;
  doctors: string[];
  settlements: Map<string, SettlementStatus>;
  files: Map<string, SepaStatus>;
  keys: number;
  /** Settlements whose paid transfer the bank returned in this step: PAID → SETTLED (decision 0123). */
  returned: Set<string>;
}

/** A pain.002 that rejects one transfer by name (AC01) and accepts the rest of the file (PART). */
function rejectOneReport(msgId: string, paymentInfoId: string, endToEndId: string, reportId: string) {
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.002.001.03"><CstmrPmtStsRpt>
<GrpHdr><MsgId>${reportId}</MsgId><CreDtTm>2026-05-07T10:00:00Z</CreDtTm></GrpHdr>
<OrgnlGrpInfAndSts><OrgnlMsgId>${msgId}</OrgnlMsgId><OrgnlMsgNmId>pain.001.001.03</OrgnlMsgNmId><GrpSts>PART</GrpSts></OrgnlGrpInfAndSts>
<OrgnlPmtInfAndSts><OrgnlPmtInfId>${paymentInfoId}</OrgnlPmtInfId><PmtInfSts>PART</PmtInfSts>
<TxInfAndSts><OrgnlEndToEndId>${endToEndId}</OrgnlEndToEndId><TxSts>RJCT</TxSts><StsRsnInf><Rsn><Cd>AC01</Cd></Rsn></StsRsnInf></TxInfAndSts>
</OrgnlPmtInfAndSts></CstmrPmtStsRpt></Document>`;
}

async function expectAnswer(response: Response, allowed: number[]) {
  const body = await response.text();
  expect({ status: response.status, body: allowed.includes(response.status) ? null : body }).toEqual({
    status: response.status,
    body: null,
  });
}

async function checkInvariants(real: Real) {
  const { db } = real.world;
  // no settlement in two live files; no recovery deducted by two live transfers
  const twice = await db.query(
    `SELECT settlement_id FROM sepa_transaction_settlements WHERE live GROUP BY settlement_id HAVING count(*) > 1
     UNION ALL SELECT settlement_id FROM sepa_transaction_recoveries WHERE live GROUP BY settlement_id HAVING count(*) > 1`,
  );
  expect(twice.rows).toEqual([]);
  // PENDING_TRANSFER is never stored (decision 0119)
  expect((await db.query(`SELECT id FROM settlements WHERE status = 'PENDING_TRANSFER'`)).rows).toEqual([]);
  // a settlement is PENDING_TRANSFER exactly when it is in a live file still waiting (GENERATED/AVAILABLE)
  const pending = await db.query<{ id: string; status: string; file_status: string | null }>(
    `SELECT s.id, s.status, f.status AS file_status
       FROM settlement_statuses s
       LEFT JOIN sepa_transaction_settlements l ON l.settlement_id = s.id AND l.live
       LEFT JOIN sepa_files f ON f.id = l.sepa_file_id
      WHERE (s.status = 'PENDING_TRANSFER') <> (f.status IS NOT NULL AND f.status IN ('GENERATED', 'AVAILABLE'))
         OR (f.status = 'PAID' AND s.status NOT IN ('PAID', 'REFUNDED_PAID'))
         OR (f.status = 'UNAVAILABLE')`,
  );
  expect(pending.rows).toEqual([]);
  // none paid twice: a settlement is in at most one PAID file
  const paidTwice = await db.query(
    `SELECT l.settlement_id FROM sepa_transaction_settlements l JOIN sepa_files f ON f.id = l.sepa_file_id
      WHERE f.status = 'PAID' GROUP BY l.settlement_id HAVING count(*) > 1`,
  );
  expect(paidTwice.rows).toEqual([]);
  // money: per file, stored = Σ transfers = Σ settlements − Σ recoveries; per transfer the same
  const money = await db.query(
    `SELECT f.id FROM sepa_files f
      WHERE f.amount_cents <> (SELECT sum(amount_cents) FROM sepa_transactions t WHERE t.sepa_file_id = f.id)
         OR f.transaction_count <> (SELECT count(*) FROM sepa_transactions t WHERE t.sepa_file_id = f.id)
         OR EXISTS (SELECT 1 FROM sepa_transactions t WHERE t.sepa_file_id = f.id AND t.amount_cents <>
              (SELECT coalesce(sum(amount_cents), 0) FROM sepa_transaction_settlements l WHERE l.sepa_transaction_id = t.id)
            - (SELECT coalesce(sum(amount_cents), 0) FROM sepa_transaction_recoveries x WHERE x.sepa_transaction_id = t.id))
         OR EXISTS (SELECT 1 FROM sepa_transactions t WHERE t.sepa_file_id = f.id AND t.amount_cents <= 0)`,
  );
  expect(money.rows).toEqual([]);
  // statuses only along DESIGN §6, since the previous step
  const now = await db.query<{ id: string; status: SettlementStatus }>(
    'SELECT id, status FROM settlement_statuses',
  );
  for (const row of now.rows) {
    const before = real.settlements.get(row.id);
    if (before)
      expect({
        id: row.id,
        move: [before, row.status],
        ok: settlementMoveAllowed(before, row.status, real.returned.has(row.id)),
      }).toMatchObject({ ok: true });
    real.settlements.set(row.id, row.status);
  }
  const files = await db.query<{ id: string; status: SepaStatus }>('SELECT id, status FROM sepa_files');
  const present = new Map(files.rows.map((f) => [f.id, f.status]));
  for (const [id, before] of real.files) {
    const after = present.get(id) ?? 'DELETED';
    expect({ id, move: [before, after], ok: fileMoveAllowed(before, after) }).toMatchObject({ ok: true });
  }
  real.files = present;
  real.returned.clear();
  await checkScreensTotals(real);
}

/**
 * The money screens read totals kept by triggers (migration 0039, docs/decisions/0138): through their
 * routes, "SEPA to process" (each doctor's SETTLED settlements of the month and the months that have any),
 * "cases to process" and the dashboard's statement-line cards equal what the rows add up to.
 */
async function checkScreensTotals(real: Real) {
  const { db } = real.world;
  const get = async <T>(path: string) => expectStatus<T>(await real.world.call('GET', path), 200);
  const settled = (
    await db.query<{ month: string; doctor: string; payable: number }>(
      `SELECT s.reference_month AS month, s.professional_id AS doctor, coalesce(s.adjusted_cents, s.net_cents) AS payable
         FROM settlements s JOIN settlement_statuses v ON v.id = s.id WHERE v.status = 'SETTLED'`,
    )
  ).rows;
  // Every page of the month, a few doctors at a time: the pages' rows and each page's totals.
  type SepaPage = {
    items: { professionalId: string; settlementCount: number; owedCents: number }[];
    nextCursor: string | null;
    total: number;
    totals: { doctorCount: number; settlementCount: number; owedCents: number };
    months: { referenceMonth: string; doctorCount: number; settlementCount: number }[];
  };
  const pages: SepaPage[] = [];
  for (let cursor: string | null = null; ; ) {
    const page: SepaPage = await get<SepaPage>(
      `/v2/admin/settlement/sepa/to-process?referenceMonth=${MONTH}&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    pages.push(page);
    cursor = page.nextCursor;
    if (cursor === null) break;
  }
  const sepa = { items: pages.flatMap((page) => page.items), months: pages[0]!.months };
  const owed = new Map<string, { settlementCount: number; owedCents: number }>();
  for (const s of settled.filter((row) => row.month === MONTH)) {
    const sums = owed.get(s.doctor) ?? { settlementCount: 0, owedCents: 0 };
    owed.set(s.doctor, { settlementCount: sums.settlementCount + 1, owedCents: sums.owedCents + s.payable });
  }
  expect(
    Object.fromEntries(
      sepa.items.map((i) => [
        i.professionalId,
        { settlementCount: i.settlementCount, owedCents: i.owedCents },
      ]),
    ),
  ).toEqual(Object.fromEntries(owed));
  expect(sepa.items).toHaveLength(owed.size);
  const sums = [...owed.values()];
  for (const page of pages)
    expect({ total: page.total, totals: page.totals }).toEqual({
      total: owed.size,
      totals: {
        doctorCount: owed.size,
        settlementCount: sums.reduce((sum, o) => sum + o.settlementCount, 0),
        owedCents: sums.reduce((sum, o) => sum + o.owedCents, 0),
        currency: 'EUR',
      },
    });
  const months = [...new Set(settled.map((s) => s.month))].sort().reverse();
  expect(sepa.months).toEqual(
    months.map((month) => {
      const rows = settled.filter((s) => s.month === month);
      return {
        referenceMonth: month,
        doctorCount: new Set(rows.map((s) => s.doctor)).size,
        settlementCount: rows.length,
      };
    }),
  );

  const waiting = (
    await db.query<Record<string, number | string | null>>(
      `SELECT reference_month, professional_id, count(*)::int AS "settlementCount", count(case_id)::int AS "caseCount",
              sum(gross_cents)::int AS "grossCents", sum(fee_cents)::int AS "feeCents", sum(net_cents)::int AS "netCents",
              sum(coalesce(adjusted_cents, net_cents))::int AS "payableCents"
         FROM settlements WHERE status IN ('READY_TO_SETTLE', 'AVAILABLE') GROUP BY 1, 2`,
    )
  ).rows;
  const cases = await get<{ items: Record<string, unknown>[]; total: number }>(
    '/v2/admin/settlement/professional?limit=200',
  );
  const amounts = ['settlementCount', 'caseCount', 'grossCents', 'feeCents', 'netCents', 'payableCents'];
  const keyed = (rows: Record<string, unknown>[], month: string, doctor: string) =>
    Object.fromEntries(
      rows.map((r) => [
        `${r[month]} ${r[doctor]}`,
        Object.fromEntries(amounts.map((a) => [a, Number(r[a])])),
      ]),
    );
  expect(cases.total).toBe(waiting.length);
  expect(keyed(cases.items, 'referenceMonth', 'professionalId')).toEqual(
    keyed(waiting, 'reference_month', 'professional_id'),
  );

  const lines = (
    await db.query<{ kind: string; status: string; cents: string }>(
      'SELECT kind, status, bank_amount_cents AS cents FROM statement_lines',
    )
  ).rows;
  const card = (chosen: typeof lines) => ({
    count: chosen.length,
    amountCents: chosen.reduce((sum, l) => sum + Number(l.cents), 0),
  });
  const dashboard = await get<{
    attention: { statementLinesUnmatched: { count: number; amountCents: number } };
  }>('/v2/admin/dashboard');
  expect(dashboard.attention.statementLinesUnmatched).toEqual(
    card(lines.filter((l) => l.status === 'UNMATCHED')),
  );
}

type Command = fc.AsyncCommand<object, Real>;
/** Every command checks every invariant after its step. */
const checked = (command: Command): Command => ({
  check: command.check,
  async run(model, real) {
    await command.run(model, real);
    await checkInvariants(real);
  },
  toString: command.toString,
});
const always = () => true;
const fileAt = (real: Real, index: number) => [...real.files.keys()][index % Math.max(1, real.files.size)];

/** A case's settlement appears (SQL: the case's lifecycle is not this test's), then is confirmed by its route. */
const settle = (doctor: number, grossCents: number): Command => ({
  check: always,
  async run(_, real) {
    const professionalId = real.doctors[doctor % real.doctors.length]!;
    const [id] = await insertSettlements(real.world.db, real.world.customerId, professionalId, [
      { grossCents, status: 'AVAILABLE' },
    ]);
    const response = await real.world.call('POST', '/v2/admin/settlement/', {
      body: {
        professionalId,
        referenceMonth: MONTH,
        settlementIds: [id],
        expectedCount: 1,
        expectedTotalCents: payableOf(grossCents),
      },
    });
    await expectAnswer(response, [200]);
    happened.confirmed++;
  },
  toString: () => `settle(${doctor}, ${grossCents})`,
});
/** The customer of a paid settlement is refunded: REFUNDED_PAID, an amount the next transfer recovers. */
const refundPaid = (index: number): Command => ({
  check: always,
  async run(_, real) {
    const { rows } = await real.world.db.query<{ id: string }>(
      `SELECT id FROM settlement_statuses WHERE status = 'PAID' ORDER BY id OFFSET $1 LIMIT 1`,
      [index],
    );
    if (!rows[0]) return;
    const response = await real.world.call('POST', `/v2/admin/settlement/${rows[0].id}/refund`, {
      body: { note: 'Cliente reembolsado' },
    });
    await expectAnswer(response, [200]);
    happened.refundedPaid++;
  },
  toString: () => `refundPaid(${index})`,
});
/** A statement line gives a paid transfer back (camt.053 `RtrInf` AC04), through the statement import. */
const returnPaid = (index: number): Command => ({
  check: always,
  async run(_, real) {
    const { rows } = await real.world.db.query<{ id: string; end_to_end_id: string; amount_cents: number }>(
      `SELECT t.id, t.end_to_end_id, t.amount_cents FROM sepa_transactions t JOIN sepa_files f ON f.id = t.sepa_file_id
        WHERE f.status = 'PAID' AND t.status = 'INCLUDED' ORDER BY t.id OFFSET $1 LIMIT 1`,
      [index],
    );
    const transfer = rows[0];
    if (!transfer) return;
    const settlements = await real.world.db.query<{ settlement_id: string }>(
      'SELECT settlement_id FROM sepa_transaction_settlements WHERE sepa_transaction_id = $1',
      [transfer.id],
    );
    for (const row of settlements.rows) real.returned.add(row.settlement_id);
    const { matched } = await importCamt(
      real.world,
      camt053([
        {
          cents: transfer.amount_cents,
          date: '2026-05-11',
          endToEndId: transfer.end_to_end_id,
          returnReason: 'AC04',
          text: `DEVOLUCAO ${transfer.end_to_end_id}`,
        },
      ]),
    );
    expect(matched).toBe(1);
    const after = await real.world.db.query<{ status: string }>(
      'SELECT status FROM sepa_transactions WHERE id = $1',
      [transfer.id],
    );
    expect(after.rows[0]!.status).toBe('REJECTED');
    happened.returned++;
  },
  toString: () => `returnPaid(${index})`,
});
const changeIban = (doctor: number): Command => ({
  check: always,
  async run(_, real) {
    await real.world.db.query('UPDATE users SET iban = $2 WHERE id = $1', [
      real.doctors[doctor % real.doctors.length],
      newIban(),
    ]);
  },
  toString: () => `changeIban(${doctor})`,
});
const generate = (): Command => ({
  check: always,
  async run(_, real) {
    const response = await real.world.call('POST', '/v2/admin/settlement/sepa/', {
      body: { referenceMonth: MONTH },
      headers: { 'idempotency-key': `property-${++real.keys}` },
    });
    const copy = response.clone();
    await expectAnswer(response, [200, 409]);
    if (response.status !== 200) return;
    happened.generated++;
    const { file } = (await copy.json()) as { file: { id: string } };
    const recoveries = await real.world.db.query(
      'SELECT 1 FROM sepa_transaction_recoveries WHERE sepa_file_id = $1',
      [file.id],
    );
    if (recoveries.rows.length > 0) happened.recovered++;
  },
  toString: () => 'generate()',
});
const fileCommand = (
  name: string,
  index: number,
  act: (real: Real, id: string) => Promise<Response>,
  allowed: number[],
): Command => ({
  check: (_) => true,
  async run(_, real) {
    const id = fileAt(real, index);
    if (!id) return;
    const response = await act(real, id);
    const copy = response.clone();
    await expectAnswer(response, allowed);
    if (response.status === 204 && name === 'deleteFile') happened.deleted++;
    if (response.status === 200 && name === 'mark-paid') happened.paid++;
    if (response.status === 200 && name === 'pain002-reject-one') {
      const result = (await copy.json()) as { applied: boolean; rejectedTransfers: unknown[] };
      if (result.applied && result.rejectedTransfers.length > 0) happened.rejectedTransfer++;
    }
  },
  toString: () => `${name}(${index})`,
});
const fileInfo = async (real: Real, id: string) =>
  (
    await real.world.db.query<{ msg_id: string; payment_info_id: string; e2e: string | null }>(
      `SELECT f.msg_id, f.payment_info_id,
              (SELECT end_to_end_id FROM sepa_transactions t WHERE t.sepa_file_id = f.id AND t.status = 'INCLUDED' ORDER BY end_to_end_id LIMIT 1) AS e2e
         FROM sepa_files f WHERE f.id = $1`,
      [id],
    )
  ).rows[0]!;
let reports = 0;
/** How often the steps that matter most really happened, so a run that never reached them fails. */
const NOTHING_HAPPENED = {
  generated: 0,
  rejectedTransfer: 0,
  deleted: 0,
  paid: 0,
  confirmed: 0,
  refundedPaid: 0,
  recovered: 0,
  returned: 0,
};
const happened = { ...NOTHING_HAPPENED };
const upload = (real: Real, xml: string) =>
  real.world.call('POST', '/v2/admin/settlement/sepa/status-report', {
    body: xml,
    headers: { 'content-type': 'application/xml' },
  });

const commands = (
  [
    fc.tuple(fc.nat(2), fc.integer({ min: 1000, max: 20_000 })).map(([d, g]) => settle(d, g)),
    // Refunds after payout twice as likely: a recovery needs one before a doctor's next settlement and file.
    fc.nat(5).map(refundPaid),
    fc.nat(5).map(refundPaid),
    fc.nat(3).map(returnPaid),
    fc.nat(2).map(changeIban),
    fc.constant(null).map(generate),
    fc.constant(null).map(generate),
    fc
      .nat(4)
      .map((i) =>
        fileCommand(
          'deleteFile',
          i,
          (r, id) => r.world.call('DELETE', `/v2/admin/settlement/sepa/${id}`),
          [204, 409],
        ),
      ),
    ...(['available', 'paid', 'unavailable'] as const).map((action) =>
      fc
        .nat(4)
        .map((i) =>
          fileCommand(
            `mark-${action}`,
            i,
            (r, id) => r.world.call('POST', `/v2/admin/settlement/sepa/${id}/${action}`),
            [200, 409],
          ),
        ),
    ),
    fc
      .nat(4)
      .map((i) =>
        fileCommand(
          'pain002-accept',
          i,
          async (r, id) => upload(r, acceptedReport((await fileInfo(r, id)).msg_id, `PROP-ACC-${++reports}`)),
          [200, 409],
        ),
      ),
    fc.nat(4).map((i) =>
      fileCommand(
        'pain002-reject-one',
        i,
        async (r, id) => {
          const info = await fileInfo(r, id);
          if (!info.e2e) return new Response(null, { status: 204 });
          return upload(
            r,
            rejectOneReport(info.msg_id, info.payment_info_id, info.e2e, `PROP-REJ-${++reports}`),
          );
        },
        [200, 204, 409],
      ),
    ),
  ] as fc.Arbitrary<Command>[]
).map((arbitrary) => arbitrary.map(checked));

describe.each(testDatabaseKinds())('SEPA invariants under random command sequences on $name', (kind) => {
  let world: SepaWorld;
  beforeAll(async () => {
    world = await startSepaWorld(kind);
  }, 120_000);
  afterAll(async () => world?.stop());

  it('keeps every settlement in one live file at most, paid once, moving along DESIGN §6, money reconciled', async () => {
    Object.assign(happened, NOTHING_HAPPENED);
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: 30, size: 'large' }), async (cmds) => {
        await world.db.query(
          'TRUNCATE statement_files, statement_file_line_counts, statement_lines, statement_line_matches, statement_line_history, statement_actions, statement_effects, bank_statements, statement_import_jobs, sepa_status_reports, payout_blocks, sepa_transaction_recoveries, sepa_transaction_settlements, sepa_transactions, sepa_files, idempotent_requests, settlements CASCADE',
        );
        const doctors = [];
        for (let i = 0; i < 3; i++) doctors.push((await insertDoctor(world.db)).id);
        for (const [i, doctor] of doctors.entries())
          await insertSettlements(world.db, world.customerId, doctor, [
            { grossCents: 2000 + i },
            { grossCents: 4000, status: 'PAID' },
          ]);
        const real: Real = {
          world,
          doctors,
          settlements: new Map(),
          files: new Map(),
          keys: 0,
          returned: new Set(),
        };
        await checkInvariants(real);
        await fc.asyncModelRun(() => ({ model: {}, real }), cmds);
      }),
      { numRuns: 60, seed: 11 },
    );
    expect(
      Object.values(happened).every((n) => n > 0),
      JSON.stringify(happened),
    ).toBe(true);
  }, 600_000);
});

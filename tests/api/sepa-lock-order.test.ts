import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../support/databases';
import { inFlight, secondConnection } from '../support/lock-waits';
import { count } from './harness';
import {
  insertDoctor,
  insertSettlements,
  MONTH,
  payableOf,
  type SepaWorld,
  startSepaWorld,
} from './sepa-support';
import {
  generateSepaFile,
  importReturn,
  lineStatus,
  settlementStatuses,
  transferStatus,
  unmatchLine,
} from './statements-reconcile-support';

/**
 * The lock order of a SEPA generation against the changes that lock the same settlements and
 * recoveries (decision 0119), on two connections — deadlocks a review found, each answered as a 500:
 * - a return's undo (undoReturn, server/statements/effects.ts) and a generation both lock FOR KEY
 *   SHARE and then waited on each other; the undo now takes the generation's own lock
 *   (`excludeSepaGenerations`, pg_advisory_xact_lock(731020011)) first, so the two never overlap;
 * - a bulk delete locks its settlements FOR UPDATE in id order; the generation locked the month's
 *   settlements in the claim and the doctor's outstanding recoveries in a later statement, so a bulk
 *   delete of [recovery, settlement] (recovery first in id order) and a generation each held what the
 *   other waited for. The claim now locks both kinds in one id-ordered statement.
 * Only PostgreSQL has two connections to race; PGlite has one.
 */
const serverUrl = process.env.TEST_DATABASE_URL;
describe.skipIf(!serverUrl)('SEPA generation lock order, two connections on postgres', () => {
  /** GENERATION_LOCK_KEY in server/finance/sepa-generate.ts. */
  const GENERATION_LOCK_KEY = 731_020_011;
  let world: SepaWorld;
  beforeAll(async () => {
    world = await startSepaWorld(testDatabaseKinds().find((kind) => kind.name === 'postgres')!);
  }, 120_000);
  afterAll(async () => world?.stop());
  const other = secondConnection(() => world.db, serverUrl);
  const blocks = (professionalId: string) =>
    count(world.db, 'payout_blocks WHERE professional_id = $1', [professionalId]);
  const generate = (professionalId: string) =>
    world.call('POST', '/v2/admin/settlement/sepa/', {
      body: { referenceMonth: MONTH, professionalIds: [professionalId] },
      headers: { 'idempotency-key': `lock-order-${randomUUID()}` },
    });

  it('an unmatch of a return waits for a SEPA generation in progress', async () => {
    // A two-transfer file whose first transfer a statement line returns (AC04): the transfer
    // REJECTED, its settlement SETTLED in no live file, the doctor blocked.
    const file = await generateSepaFile(world, [15_000, 9000]);
    const transfer = file.transfers[0]!;
    const lineIds = [await importReturn(world, transfer)];
    const lineId = lineIds[0]!;
    const { rows } = await world.db.query<{ settlement_id: string }>(
      'SELECT settlement_id FROM sepa_transaction_settlements WHERE sepa_transaction_id = $1',
      [transfer.id],
    );
    const settlementIds = rows.map((row) => row.settlement_id);
    expect(settlementIds).toHaveLength(1);
    expect(await transferStatus(world.db, transfer.id)).toBe('REJECTED');
    expect(await settlementStatuses(world.db, settlementIds)).toEqual(['SETTLED']);
    expect(await blocks(transfer.professionalId)).toBe(1);

    // A generation in progress, as generateSepaFile holds it: its transaction lock — left uncommitted.
    await other.query('BEGIN');
    await other.query('SELECT pg_advisory_xact_lock($1)', [GENERATION_LOCK_KEY]);
    const undo = inFlight(unmatchLine(world, lineId));
    // It waits for the generation's lock before it locks (or checks) the settlements. Soft: were it
    // not to wait, what it then answers and leaves is the failure worth reading.
    const waiting = await other.waiters(undo.state);
    expect.soft(undo.state.answered).toBe(false);
    expect.soft(waiting).toHaveLength(1);
    expect.soft(waiting[0]).toMatch(/^SELECT pg_advisory_xact_lock\(\$1\)$/);
    await other.query('COMMIT');

    expect(await undo.answer).toEqual({ status: 200, body: expect.anything() });
    expect(await transferStatus(world.db, transfer.id)).toBe('INCLUDED');
    expect(await settlementStatuses(world.db, settlementIds)).toEqual(['PENDING_TRANSFER']);
    expect(
      await count(world.db, 'sepa_transaction_settlements WHERE settlement_id = ANY($1::uuid[]) AND live', [
        settlementIds,
      ]),
    ).toBe(1);
    expect(await blocks(transfer.professionalId)).toBe(0);
    expect(await lineStatus(world.db, lineId)).not.toBe('MATCHED');
  });

  /**
   * A complete doctor with a REFUNDED_PAID settlement R (to recover, 2026-02) and a SETTLED one S of
   * the month to pay, id(R) < id(S): a bulk delete of both locks R first.
   */
  async function recoveryBeforeSettlement() {
    const doctor = await insertDoctor(world.db);
    // Both drawn again until R < S: each pair is in that order one time in two. Drawing S alone against a
    // fixed R failed whenever R's random id was high (64 draws: about one run in 65).
    for (let attempt = 0; attempt < 64; attempt++) {
      const [recovery] = await insertSettlements(world.db, world.customerId, doctor.id, [
        { grossCents: 3000, month: '2026-02', status: 'REFUNDED_PAID' },
      ]);
      const [settlement] = await insertSettlements(world.db, world.customerId, doctor.id, [
        { grossCents: 20_000 },
      ]);
      if (settlement! > recovery!)
        return { doctorId: doctor.id, recovery: recovery!, settlement: settlement! };
      // Not in that order: neither (their cases go with them, nothing else refers to them yet).
      await world.db.query(
        'WITH gone AS (DELETE FROM settlements WHERE id = ANY($1::uuid[]) RETURNING case_id) DELETE FROM cases WHERE id IN (SELECT case_id FROM gone)',
        [[settlement, recovery]],
      );
    }
    throw new Error('no settlement id above its recovery’s in 64 pairs');
  }

  it('a generation never deadlocks with a bulk delete of a doctor’s settlement and recovery', async () => {
    const { doctorId, recovery, settlement } = await recoveryBeforeSettlement();
    // As PostgreSQL orders the uuids (lockSettlements' ORDER BY id), not only as strings.
    const { rows: ordered } = await world.db.query<{ first: boolean }>(
      'SELECT $1::uuid < $2::uuid AS first',
      [recovery, settlement],
    );
    expect(ordered[0]!.first).toBe(true);
    expect(await settlementStatuses(world.db, [recovery, settlement])).toEqual(['REFUNDED_PAID', 'SETTLED']);
    const files = await count(world.db, 'sepa_files');

    // A bulk delete of [R, S] as lockSettlements makes it, in id order: R locked FOR UPDATE — and S next.
    await other.query('BEGIN');
    await other.query('SELECT 1 FROM settlements WHERE id = $1 FOR UPDATE', [recovery]);
    const generation = inFlight(generate(doctorId));
    // It planned with R and S as they are and waits in the claim, which locks R before S: it holds
    // nothing the bulk delete will want. Soft: were it to wait elsewhere, what follows shows the rest.
    const waiting = await other.waiters(generation.state);
    expect.soft(generation.state.answered).toBe(false);
    expect
      .soft(waiting.map((query) => query.split('(')[0]!.trim()))
      .toEqual(['INSERT INTO sepa_transaction_settlements']);

    // The bulk delete takes S next: free, since the generation waits before it. A regression (S held
    // FOR KEY SHARE while R is waited for) fails on the lock timeout or the deadlock check instead of
    // hanging.
    await other.query(`SET LOCAL lock_timeout = '3s'`);
    const started = Date.now();
    const second = await other.query('SELECT 1 FROM settlements WHERE id = $1 FOR UPDATE', [settlement]).then(
      (r) => ({ locked: r.rowCount }),
      (error: { code?: string; message?: string }) => ({ error: error.code ?? error.message }),
    );
    const tookMs = Date.now() - started;
    // Still waiting for R (the deadlock check, after deadlock_timeout, would have ended one of the two).
    const stillWaiting = await world.db.query<{ query: string }>(
      'SELECT query FROM pg_stat_activity WHERE $1::int = ANY(pg_blocking_pids(pid))',
      [other.pid],
    );
    expect.soft({ second, answered: generation.state.answered }).toEqual({
      second: { locked: 1 },
      answered: false,
    });
    expect.soft(stillWaiting.rows).toHaveLength(1);
    expect.soft(tookMs).toBeLessThan(1000);
    await other.query('ROLLBACK');

    // Nothing changed: the plan holds and the file is written. Never a 500.
    const answer = await generation.answer;
    expect(answer.status).not.toBe(500);
    expect(answer.status).toBe(200);
    expect(await count(world.db, 'sepa_files')).toBe(files + 1);
    expect(await settlementStatuses(world.db, [settlement])).toEqual(['PENDING_TRANSFER']);
    const { rows: deducted } = await world.db.query<{ amount_cents: number }>(
      'SELECT amount_cents FROM sepa_transaction_recoveries WHERE settlement_id = $1 AND live',
      [recovery],
    );
    expect(deducted.map((row) => Number(row.amount_cents))).toEqual([payableOf(3000)]);
  });
});

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../support/databases';
import { count } from './harness';
import {
  expectStatus,
  insertDoctor,
  insertSettlements,
  MONTH,
  newIban,
  payableOf,
  type SepaWorld,
  startSepaWorld,
} from './sepa-support';
import {
  importReturn,
  lineStatus,
  settlementStatuses,
  transferStatus,
  unmatchLine,
} from './statements-reconcile-support';

/**
 * Unmatching a return (undoReturn, server/statements/effects.ts) when the returned transfer deducted a
 * recovery (a REFUNDED_PAID settlement's amount, sepa_transaction_recoveries). The return made the
 * deduction not live, so the recovery is owed again; once the doctor's IBAN changes (the block lifted,
 * decision 0070) a later file deducts it again. Re-living the first deduction then would be a second
 * live one (`sepa_transaction_recoveries_settlement_key`): the undo refuses STATEMENT_UNMATCH_BLOCKED
 * and leaves everything as it was — not a 500. Without that later file it goes through and puts the
 * deduction back on the transfer.
 */
describe.each(testDatabaseKinds())('a return unmatched after its recovery moved on, on $name', (kind) => {
  let world: SepaWorld;
  beforeAll(async () => {
    world = await startSepaWorld(kind);
  }, 120_000);
  afterAll(async () => world?.stop());

  const generate = (referenceMonth: string, professionalId: string) =>
    world.call('POST', '/v2/admin/settlement/sepa/', {
      body: { referenceMonth, professionalIds: [professionalId] },
      headers: { 'idempotency-key': `undo-recovery-${randomUUID()}` },
    });
  interface Detail {
    id: string;
    amountCents: number;
    transfers: {
      id: string;
      endToEndId: string;
      amountCents: number;
      status: string;
      recoveredCents: number;
      recoveries: { settlementId: string; amountCents: number }[];
    }[];
  }
  const generated = async (referenceMonth: string, professionalId: string) => {
    const { file } = await expectStatus<{ file: { id: string } }>(
      await generate(referenceMonth, professionalId),
      200,
    );
    return expectStatus<Detail>(await world.call('GET', `/v2/admin/settlement/sepa/${file.id}`), 200);
  };
  /** The files each settlement is live in (its links), as [settlement, file]. */
  const liveFiles = async (ids: readonly string[]) =>
    (
      await world.db.query<{ settlement_id: string; sepa_file_id: string }>(
        `SELECT settlement_id, sepa_file_id FROM sepa_transaction_settlements
          WHERE settlement_id = ANY($1::uuid[]) AND live ORDER BY settlement_id`,
        [ids],
      )
    ).rows.map((row) => [row.settlement_id, row.sepa_file_id]);
  /** The live deductions of a recovery, as [transfer, file, cents]. */
  const liveDeductions = async (settlementId: string) =>
    (
      await world.db.query<{ sepa_transaction_id: string; sepa_file_id: string; amount_cents: number }>(
        `SELECT sepa_transaction_id, sepa_file_id, amount_cents FROM sepa_transaction_recoveries
          WHERE settlement_id = $1 AND live`,
        [settlementId],
      )
    ).rows.map((row) => [row.sepa_transaction_id, row.sepa_file_id, row.amount_cents]);
  const blocks = async (professionalId: string) =>
    (
      await world.db.query(
        `SELECT id, blocked_iban, reason_code, sepa_transaction_id, statement_line_id FROM payout_blocks
          WHERE professional_id = $1 ORDER BY id`,
        [professionalId],
      )
    ).rows;
  const storedStatus = async (id: string) =>
    (await world.db.query<{ status: string }>('SELECT status FROM settlements WHERE id = $1', [id])).rows[0]!
      .status;

  /**
   * A doctor with a SETTLED settlement in 2026-04 and a REFUNDED_PAID one in 2026-02; the 2026-04 file
   * pays net − recovery, and a statement returns that transfer (AC04): the transfer REJECTED, the
   * settlement SETTLED in no live file, the recovery owed again, the doctor blocked.
   */
  async function returnedWithRecovery() {
    const doctor = await insertDoctor(world.db);
    const [settled] = await insertSettlements(world.db, world.customerId, doctor.id, [
      { grossCents: 20_000 },
    ]);
    const [refunded] = await insertSettlements(world.db, world.customerId, doctor.id, [
      { grossCents: 3000, month: '2026-02', status: 'REFUNDED_PAID' },
    ]);
    const april = await generated(MONTH, doctor.id);
    const transfer = april.transfers[0]!;
    expect(transfer).toMatchObject({
      amountCents: payableOf(20_000) - payableOf(3000),
      recoveredCents: payableOf(3000),
      recoveries: [{ settlementId: refunded, amountCents: payableOf(3000) }],
    });
    expect(await liveDeductions(refunded!)).toEqual([[transfer.id, april.id, payableOf(3000)]]);

    const lineIds = [await importReturn(world, transfer)];
    expect(await transferStatus(world.db, transfer.id)).toBe('REJECTED');
    expect(await settlementStatuses(world.db, [settled!])).toEqual(['SETTLED']);
    expect(await liveFiles([settled!])).toEqual([]);
    expect(await liveDeductions(refunded!)).toEqual([]);
    expect(await blocks(doctor.id)).toHaveLength(1);
    return { doctor, settled: settled!, refunded: refunded!, april, transfer, lineId: lineIds[0]! };
  }

  it('refuses STATEMENT_UNMATCH_BLOCKED and changes nothing once a later file deducted the recovery again', async () => {
    const { doctor, settled, refunded, april, transfer, lineId } = await returnedWithRecovery();

    // A new IBAN lifts the block (decision 0070); a 2026-03 file pays the doctor and deducts the
    // recovery again, owed since the return.
    await world.db.query('UPDATE users SET iban = $2 WHERE id = $1', [doctor.id, newIban()]);
    const [march] = await insertSettlements(world.db, world.customerId, doctor.id, [
      { grossCents: 15_000, month: '2026-03' },
    ]);
    const marchFile = await generated('2026-03', doctor.id);
    expect(marchFile.transfers).toHaveLength(1);
    expect(marchFile.transfers[0]).toMatchObject({
      amountCents: payableOf(15_000) - payableOf(3000),
      recoveries: [{ settlementId: refunded, amountCents: payableOf(3000) }],
    });
    const deductedAgain = [[marchFile.transfers[0]!.id, marchFile.id, payableOf(3000)]];
    expect(await liveDeductions(refunded)).toEqual(deductedAgain);
    expect(await liveFiles([settled, march!])).toEqual([[march, marchFile.id]]);

    const blocksBefore = await blocks(doctor.id);
    const audit = await count(world.db, 'audit_log');
    const effects = await count(world.db, 'statement_effects WHERE undone_at IS NULL');

    expect(await expectStatus(await unmatchLine(world, lineId), 409)).toMatchObject({
      code: 'STATEMENT_UNMATCH_BLOCKED',
    });
    expect(await transferStatus(world.db, transfer.id)).toBe('REJECTED');
    expect(await settlementStatuses(world.db, [settled])).toEqual(['SETTLED']);
    expect(await liveFiles([settled])).toEqual([]);
    expect(await liveDeductions(refunded)).toEqual(deductedAgain);
    expect(await storedStatus(refunded)).toBe('REFUNDED_PAID');
    expect(await lineStatus(world.db, lineId)).toBe('MATCHED');
    expect(await blocks(doctor.id)).toEqual(blocksBefore);
    expect(await count(world.db, 'audit_log')).toBe(audit);
    expect(await count(world.db, 'statement_effects WHERE undone_at IS NULL')).toBe(effects);
    // The April file still holds no live link of the returned transfer.
    expect(
      await count(world.db, 'sepa_transaction_settlements WHERE sepa_file_id = $1 AND live', [april.id]),
    ).toBe(0);

    // Asked again, the same answer.
    expect(await expectStatus(await unmatchLine(world, lineId), 409)).toMatchObject({
      code: 'STATEMENT_UNMATCH_BLOCKED',
    });
    expect(await lineStatus(world.db, lineId)).toBe('MATCHED');

    // The March file deleted, the recovery is owed again and in no live deduction: the unmatch goes
    // through and the April transfer deducts it once more.
    expect((await world.call('DELETE', `/v2/admin/settlement/sepa/${marchFile.id}`)).status).toBe(204);
    expect(await liveDeductions(refunded)).toEqual([]);
    await expectStatus(await unmatchLine(world, lineId), 200);
    expect(await lineStatus(world.db, lineId)).toBe('UNMATCHED');
    expect(await transferStatus(world.db, transfer.id)).toBe('INCLUDED');
    expect(await liveDeductions(refunded)).toEqual([[transfer.id, april.id, payableOf(3000)]]);
    expect(await liveFiles([settled, march!])).toEqual([[settled, april.id]]);
    expect(await settlementStatuses(world.db, [settled, march!])).toEqual(['PENDING_TRANSFER', 'SETTLED']);
    expect(await blocks(doctor.id)).toEqual([]);
  });

  it('without a later deduction, the unmatch puts the transfer, its settlement and its recovery back (200)', async () => {
    const { doctor, settled, refunded, april, transfer, lineId } = await returnedWithRecovery();
    const audit = await count(world.db, 'audit_log');

    await expectStatus(await unmatchLine(world, lineId), 200);
    expect(await lineStatus(world.db, lineId)).toBe('UNMATCHED');
    expect(await transferStatus(world.db, transfer.id)).toBe('INCLUDED');
    expect(await liveDeductions(refunded)).toEqual([[transfer.id, april.id, payableOf(3000)]]);
    expect(await storedStatus(refunded)).toBe('REFUNDED_PAID');
    expect(await settlementStatuses(world.db, [settled])).toEqual(['PENDING_TRANSFER']);
    expect(await liveFiles([settled])).toEqual([[settled, april.id]]);
    expect(await blocks(doctor.id)).toEqual([]);
    expect(await count(world.db, 'audit_log')).toBeGreaterThan(audit);
    // Nothing owed back any more: the recovery is deducted by the April transfer again.
    const payouts = await expectStatus<{ recovery: { amountCents: number } }>(
      await world.call('GET', `/v2/admin/professionals/${doctor.id}/payouts`),
      200,
    );
    expect(payouts.recovery.amountCents).toBe(0);
  });
});

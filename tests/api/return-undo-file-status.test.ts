import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../support/databases';
import { count } from './harness';
import { expectStatus, type SepaWorld, startSepaWorld } from './sepa-support';
import {
  type GeneratedFile,
  generateSepaFile,
  importReturn,
  lineStatus,
  sepaStatus,
  settlementStatuses,
  transferStatus,
  unmatchLine,
} from './statements-reconcile-support';

/**
 * Unmatching a return (undoReturn, server/statements/effects.ts) after the returned transfer's file
 * moved on. The return took the transfer out of its file (REJECTED, settlements SETTLED with no live
 * link, the doctor blocked); the file's status afterwards decides what the undo may put back:
 *   - UNAVAILABLE: the file pays nobody, so re-living the links would leave PENDING_TRANSFER
 *     settlements (stored SETTLED + live link, decision 0119) in a dead file for good: refused
 *     STATEMENT_UNMATCH_BLOCKED, nothing changed.
 *   - PAID (the return came before): the transfer is back in a paid file, so its settlements are PAID,
 *     not PENDING_TRANSFER in a PAID file.
 *   - still GENERATED/AVAILABLE: PENDING_TRANSFER, as before the return.
 */
describe.each(testDatabaseKinds())('a return unmatched after its file changed status, on $name', (kind) => {
  let world: SepaWorld;
  beforeAll(async () => {
    world = await startSepaWorld(kind);
  }, 120_000);
  afterAll(async () => world?.stop());
  const mark = (fileId: string, action: 'available' | 'paid' | 'unavailable') =>
    world.call('POST', `/v2/admin/settlement/sepa/${fileId}/${action}`);
  /** The settlements a transfer pays (its links, live or not). */
  const settlementsOf = async (transferId: string) =>
    (
      await world.db.query<{ settlement_id: string }>(
        'SELECT settlement_id FROM sepa_transaction_settlements WHERE sepa_transaction_id = $1 ORDER BY settlement_id',
        [transferId],
      )
    ).rows.map((row) => row.settlement_id);
  /** The files each settlement is live in (its links), as [settlement, file]. */
  const liveFiles = async (ids: readonly string[]) =>
    (
      await world.db.query<{ settlement_id: string; sepa_file_id: string }>(
        `SELECT settlement_id, sepa_file_id FROM sepa_transaction_settlements
          WHERE settlement_id = ANY($1::uuid[]) AND live ORDER BY settlement_id`,
        [ids],
      )
    ).rows.map((row) => [row.settlement_id, row.sepa_file_id]);
  const storedStatuses = async (ids: readonly string[]) =>
    (
      await world.db.query<{ status: string }>(
        'SELECT status FROM settlements WHERE id = ANY($1::uuid[]) ORDER BY status',
        [ids],
      )
    ).rows.map((row) => row.status);
  const blocks = async (professionalId: string) =>
    (
      await world.db.query(
        `SELECT id, blocked_iban, reason_code, sepa_transaction_id, statement_line_id FROM payout_blocks
          WHERE professional_id = $1 ORDER BY id`,
        [professionalId],
      )
    ).rows;

  /**
   * A file of two doctors (GENERATED, or marked AVAILABLE when `status` says so) and a statement
   * returning the first transfer (AC04): that transfer REJECTED, its settlement SETTLED in no live
   * file, its doctor blocked; the other transfer untouched, PENDING_TRANSFER.
   */
  async function returnedTransfer(status: 'GENERATED' | 'AVAILABLE') {
    const file: GeneratedFile = await generateSepaFile(world, [20_000, 15_000]);
    if (status === 'AVAILABLE') await expectStatus(await mark(file.id, 'available'), 200);
    expect(await sepaStatus(world.db, file.id)).toBe(status);
    const [returned, other] = file.transfers;
    const returnedSettlements = await settlementsOf(returned!.id);
    const otherSettlements = await settlementsOf(other!.id);
    expect(returnedSettlements).toHaveLength(1);
    expect(otherSettlements).toHaveLength(1);

    const lineIds = [await importReturn(world, returned!)];
    expect(await transferStatus(world.db, returned!.id)).toBe('REJECTED');
    expect(await settlementStatuses(world.db, returnedSettlements)).toEqual(['SETTLED']);
    expect(await liveFiles(returnedSettlements)).toEqual([]);
    expect(await blocks(returned!.professionalId)).toHaveLength(1);
    expect(await settlementStatuses(world.db, otherSettlements)).toEqual(['PENDING_TRANSFER']);
    expect(await sepaStatus(world.db, file.id)).toBe(status);
    return {
      file,
      returned: returned!,
      other: other!,
      returnedSettlements,
      otherSettlements,
      lineId: lineIds[0]!,
    };
  }

  it.each(['GENERATED', 'AVAILABLE'] as const)(
    'returned while %s, then the file marked UNAVAILABLE: the unmatch is refused STATEMENT_UNMATCH_BLOCKED and changes nothing',
    async (status) => {
      const { file, returned, other, returnedSettlements, otherSettlements, lineId } =
        await returnedTransfer(status);
      expect(await expectStatus<{ status: string }>(await mark(file.id, 'unavailable'), 200)).toMatchObject({
        status: 'UNAVAILABLE',
      });
      // The other transfer's settlement is payable again; the returned one's already was.
      expect(await settlementStatuses(world.db, otherSettlements)).toEqual(['SETTLED']);
      expect(await liveFiles([...returnedSettlements, ...otherSettlements])).toEqual([]);

      const blocksBefore = await blocks(returned.professionalId);
      const audit = await count(world.db, 'audit_log');
      const effects = await count(world.db, 'statement_effects WHERE undone_at IS NULL');

      expect(await expectStatus(await unmatchLine(world, lineId), 409)).toMatchObject({
        code: 'STATEMENT_UNMATCH_BLOCKED',
      });
      expect(await transferStatus(world.db, returned.id)).toBe('REJECTED');
      expect(await transferStatus(world.db, other.id)).toBe('INCLUDED');
      expect(await settlementStatuses(world.db, returnedSettlements)).toEqual(['SETTLED']);
      expect(await storedStatuses(returnedSettlements)).toEqual(['SETTLED']);
      expect(await liveFiles([...returnedSettlements, ...otherSettlements])).toEqual([]);
      expect(await blocks(returned.professionalId)).toEqual(blocksBefore);
      expect(await lineStatus(world.db, lineId)).toBe('MATCHED');
      expect(await sepaStatus(world.db, file.id)).toBe('UNAVAILABLE');
      expect(await count(world.db, 'audit_log')).toBe(audit);
      expect(await count(world.db, 'statement_effects WHERE undone_at IS NULL')).toBe(effects);
      expect(
        await count(world.db, 'sepa_transaction_settlements WHERE sepa_file_id = $1 AND live', [file.id]),
      ).toBe(0);

      // Asked again, the same answer.
      expect(await expectStatus(await unmatchLine(world, lineId), 409)).toMatchObject({
        code: 'STATEMENT_UNMATCH_BLOCKED',
      });
      expect(await lineStatus(world.db, lineId)).toBe('MATCHED');
      expect(await transferStatus(world.db, returned.id)).toBe('REJECTED');
    },
  );

  it.each(['GENERATED', 'AVAILABLE'] as const)(
    'returned while %s, then the file marked PAID: the unmatch puts the transfer back with its settlement PAID (200)',
    async (status) => {
      const { file, returned, other, returnedSettlements, otherSettlements, lineId } =
        await returnedTransfer(status);
      expect(await expectStatus<{ status: string }>(await mark(file.id, 'paid'), 200)).toMatchObject({
        status: 'PAID',
      });
      // The file pays the other doctor; the returned transfer is out of it, its settlement payable again.
      expect(await settlementStatuses(world.db, otherSettlements)).toEqual(['PAID']);
      expect(await settlementStatuses(world.db, returnedSettlements)).toEqual(['SETTLED']);
      expect(await liveFiles(returnedSettlements)).toEqual([]);
      const audit = await count(world.db, 'audit_log');

      await expectStatus(await unmatchLine(world, lineId), 200);
      expect(await lineStatus(world.db, lineId)).toBe('UNMATCHED');
      expect(await transferStatus(world.db, returned.id)).toBe('INCLUDED');
      expect(await storedStatuses(returnedSettlements)).toEqual(['PAID']);
      expect(await settlementStatuses(world.db, returnedSettlements)).toEqual(['PAID']);
      expect(await liveFiles(returnedSettlements)).toEqual([[returnedSettlements[0], file.id]]);
      expect(await blocks(returned.professionalId)).toEqual([]);
      expect(await sepaStatus(world.db, file.id)).toBe('PAID');
      // The other transfer is as the PAID mark left it.
      expect(await transferStatus(world.db, other.id)).toBe('INCLUDED');
      expect(await storedStatuses(otherSettlements)).toEqual(['PAID']);
      expect(await liveFiles(otherSettlements)).toEqual([[otherSettlements[0], file.id]]);
      expect(await count(world.db, 'audit_log')).toBeGreaterThan(audit);
      // No settlement of the PAID file left PENDING_TRANSFER.
      expect(
        await count(
          world.db,
          `settlement_statuses v WHERE v.status <> 'PAID' AND v.id IN (
             SELECT l.settlement_id FROM sepa_transaction_settlements l WHERE l.sepa_file_id = $1 AND l.live)`,
          [file.id],
        ),
      ).toBe(0);
    },
  );

  it('control: returned and unmatched while AVAILABLE, the settlement is PENDING_TRANSFER again (200)', async () => {
    const { file, returned, other, returnedSettlements, otherSettlements, lineId } =
      await returnedTransfer('AVAILABLE');
    const audit = await count(world.db, 'audit_log');

    await expectStatus(await unmatchLine(world, lineId), 200);
    expect(await lineStatus(world.db, lineId)).toBe('UNMATCHED');
    expect(await transferStatus(world.db, returned.id)).toBe('INCLUDED');
    expect(await settlementStatuses(world.db, returnedSettlements)).toEqual(['PENDING_TRANSFER']);
    expect(await storedStatuses(returnedSettlements)).toEqual(['SETTLED']);
    expect(await liveFiles(returnedSettlements)).toEqual([[returnedSettlements[0], file.id]]);
    expect(await blocks(returned.professionalId)).toEqual([]);
    expect(await sepaStatus(world.db, file.id)).toBe('AVAILABLE');
    expect(await transferStatus(world.db, other.id)).toBe('INCLUDED');
    expect(await settlementStatuses(world.db, otherSettlements)).toEqual(['PENDING_TRANSFER']);
    expect(await count(world.db, 'audit_log')).toBeGreaterThan(audit);
  });
});

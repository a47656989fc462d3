import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../support/databases';
import { count } from './harness';
import {
  expectStatus,
  insertDoctor,
  insertSettlements,
  type SepaWorld,
  startSepaWorld,
} from './sepa-support';

interface Generated {
  file: { id: string; msgId: string };
}
interface History {
  items: { action: string; entityType: string; entityId: string; after: Record<string, unknown> }[];
}

/**
 * A settlement's history shows every SEPA move it went through (issue 11), though the claim names its
 * settlements only through the file's links (migration 0025, docs/decisions/0099): while the file
 * lives, once it is UNAVAILABLE (links no longer live), and after it is deleted (links gone).
 */
describe.each(testDatabaseKinds())('a settlement’s SEPA history on $name', (kind) => {
  let world: SepaWorld;
  beforeAll(async () => {
    world = await startSepaWorld(kind);
  }, 120_000);
  afterAll(async () => world?.stop());

  let keyNumber = 0;
  const generate = async (referenceMonth: string, professionalIds: string[]) =>
    (
      await expectStatus<Generated>(
        await world.call('POST', '/v2/admin/settlement/sepa/', {
          body: { referenceMonth, professionalIds },
          headers: { 'idempotency-key': `history-${++keyNumber}` },
        }),
        200,
      )
    ).file;
  const historyOf = async (id: string) =>
    (
      await expectStatus<History>(
        await world.call('GET', `/v2/admin/audit?entityType=settlement&entityId=${id}`),
        200,
      )
    ).items.map((item) => `${item.action} ${item.entityType}:${item.entityId} → ${item.after.status}`);

  it('shows the claim, the file deleted, a second claim and the file unavailable, and nothing of files it was not in', async () => {
    const month = '2025-11';
    const doctor = await insertDoctor(world.db);
    const [inFile, alsoInFile] = await insertSettlements(world.db, world.customerId, doctor.id, [
      { grossCents: 4000, month },
      { grossCents: 6000, month },
    ]);
    // The same doctor's settlement of another month: the doctor has a transfer in the file, it does not.
    const [otherMonth] = await insertSettlements(world.db, world.customerId, doctor.id, [
      { grossCents: 5000, month: '2025-10' },
    ]);

    const first = await generate(month, [doctor.id]);
    // The claim's audit row names no settlement in audit_log_entities: its links do.
    expect(
      await count(
        world.db,
        `audit_log_entities n JOIN audit_log a ON a.id = n.audit_id
          WHERE a.action = 'settlement.included-in-sepa' AND a.entity_id = $1`,
        [first.id],
      ),
    ).toBe(0);
    const claimOf = (fileId: string) => `settlement.included-in-sepa sepa_file:${fileId} → PENDING_TRANSFER`;
    for (const id of [inFile!, alsoInFile!]) expect(await historyOf(id)).toEqual([claimOf(first.id)]);
    expect(await historyOf(otherMonth!)).toEqual([]);

    // Deleting the file deletes its links: the claim is still in each settlement's history.
    expect((await world.call('DELETE', `/v2/admin/settlement/sepa/${first.id}`)).status).toBe(204);
    expect(await count(world.db, 'sepa_transaction_settlements WHERE sepa_file_id = $1', [first.id])).toBe(0);
    const deleted = `settlement.sepa-deleted sepa_file:${first.id} → SETTLED`;
    for (const id of [inFile!, alsoInFile!])
      expect(await historyOf(id)).toEqual([deleted, claimOf(first.id)]);

    // A second file; UNAVAILABLE takes the links out of service but keeps them.
    const second = await generate(month, [doctor.id]);
    for (const event of ['available', 'unavailable'])
      await expectStatus(await world.call('POST', `/v2/admin/settlement/sepa/${second.id}/${event}`), 200);
    expect(
      await count(world.db, 'sepa_transaction_settlements WHERE sepa_file_id = $1 AND live', [second.id]),
    ).toBe(0);
    for (const id of [inFile!, alsoInFile!])
      expect(await historyOf(id)).toEqual([
        `settlement.sepa-unavailable sepa_file:${second.id} → SETTLED`,
        claimOf(second.id),
        deleted,
        claimOf(first.id),
      ]);
    expect(await historyOf(otherMonth!)).toEqual([]);
  });

  it('answers an empty history for a settlement id that is not a UUID', async () => {
    expect(await historyOf('not-a-uuid')).toEqual([]);
  });
});

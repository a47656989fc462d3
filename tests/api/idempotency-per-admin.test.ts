import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../support/databases';
import { bearer, count, insertUser, issueToken } from './harness';
import {
  expectStatus,
  insertDoctor,
  insertSettlements,
  payableOf,
  type SepaWorld,
  startSepaWorld,
} from './sepa-support';

interface Generated {
  file: { id: string; transferCount: number; amountCents: number };
}

/**
 * Issue 28: an Idempotency-Key is the admin's own (decision 0125). A second admin reusing the first's
 * key got the first's stored answer — a file they never generated, while their own settlements
 * stayed unpaid. Through the real SEPA generation route, with two admins.
 */
describe.each(testDatabaseKinds())('Idempotency-Key per admin on $name', (kind) => {
  let world: SepaWorld;
  let secondAdmin: Record<string, string>;

  beforeAll(async () => {
    world = await startSepaWorld(kind);
    secondAdmin = bearer(
      await issueToken(world.db, await insertUser(world.db, { email: 'second-admin@demo.pt', admin: true })),
    );
  }, 120_000);
  afterAll(async () => world?.stop());

  const generate = (key: string, headers: Record<string, string> = {}) =>
    world.call('POST', '/v2/admin/settlement/sepa/', {
      body: { referenceMonth: '2026-03' },
      headers: { 'idempotency-key': key, ...headers },
    });

  it("answers another admin's same key as a new request, while each admin's own retry answers their first result", async () => {
    const key = 'the-same-key-for-both-admins';
    const first = await insertDoctor(world.db);
    await insertSettlements(world.db, world.customerId, first.id, [{ grossCents: 6000, month: '2026-03' }]);
    const byFirstAdmin = await expectStatus<Generated>(await generate(key), 200);
    expect(byFirstAdmin.file).toMatchObject({ transferCount: 1, amountCents: payableOf(6000) });

    const second = await insertDoctor(world.db);
    await insertSettlements(world.db, world.customerId, second.id, [{ grossCents: 9000, month: '2026-03' }]);
    const bySecondAdmin = await expectStatus<Generated>(await generate(key, secondAdmin), 200);
    expect(bySecondAdmin.file.id).not.toBe(byFirstAdmin.file.id);
    expect(bySecondAdmin.file).toMatchObject({ transferCount: 1, amountCents: payableOf(9000) });
    expect(await count(world.db, 'sepa_files')).toBe(2);

    // Each admin's retry still answers their own first result and changes nothing.
    expect(await expectStatus<Generated>(await generate(key), 200)).toEqual(byFirstAdmin);
    expect(await expectStatus<Generated>(await generate(key, secondAdmin), 200)).toEqual(bySecondAdmin);
    expect(await count(world.db, 'sepa_files')).toBe(2);
    expect(await count(world.db, 'idempotent_requests')).toBe(2);
  });
});

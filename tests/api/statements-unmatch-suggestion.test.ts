import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StatementActionResult } from '../../contract/reconciliation';
import { testDatabaseKinds } from '../support/databases';
import { expectStatus, type SepaWorld, startSepaWorld } from './sepa-support';
import { importStatement, insertPayout, lineStatus } from './statements-reconcile-support';

const LINES = '/v2/admin/statements/lines';

/**
 * Issue 29 point 11: unmatching a line whose match was the matcher's suggestion keeps the suggestion,
 * so `a` takes it again; a match the admin picked goes back to UNMATCHED (decision 0132).
 */
describe.each(testDatabaseKinds())('unmatch keeps the suggestion, on $name', (kind) => {
  let world: SepaWorld;
  beforeAll(async () => {
    world = await startSepaWorld(kind);
  }, 120_000);
  afterAll(async () => world?.stop());

  const act = async (lineId: string, verb: string, body?: unknown, status = 200) =>
    expectStatus<StatementActionResult>(
      await world.call('POST', `${LINES}/${lineId}/${verb}`, { body }),
      status,
    );
  const lineOf = (result: StatementActionResult, id: string) => result.lines.find((l) => l.id === id)!;

  it('a suggestion accepted then unmatched is suggested again, and accepting it again matches it', async () => {
    const payout = await insertPayout(world.db, 3_171);
    const { lineIds } = await importStatement(world, [
      { amountCents: 3_171, counterpartyName: 'Stripe', description: 'TRF STRIPE' },
    ]);
    const lineId = lineIds[0]!;
    expect(await lineStatus(world.db, lineId)).toBe('SUGGESTED');
    await act(lineId, 'accept');
    expect(await lineStatus(world.db, lineId)).toBe('MATCHED');

    const unmatched = lineOf(await act(lineId, 'unmatch'), lineId);
    expect(unmatched).toMatchObject({ status: 'SUGGESTED', matches: [] });
    expect(unmatched.suggestion?.id).toBe(payout);
    const { rows } = await world.db.query<{ state: string; payout_id: string }>(
      'SELECT state, payout_id FROM statement_line_matches WHERE statement_line_id = $1',
      [lineId],
    );
    expect(rows).toEqual([{ state: 'SUGGESTED', payout_id: payout }]);

    expect(lineOf(await act(lineId, 'accept'), lineId)).toMatchObject({ status: 'MATCHED' });
  });

  it('a match the admin picked goes back to unmatched', async () => {
    const payout = await insertPayout(world.db, 2_222);
    const { lineIds } = await importStatement(world, [
      { amountCents: 2_222, counterpartyName: 'Outra', description: 'DIVERSOS' },
    ]);
    const lineId = lineIds[0]!;
    await act(lineId, 'match', { counterparts: [{ kind: 'PAYOUT', id: payout }], note: 'Escolhido à mão' });
    expect(await lineStatus(world.db, lineId)).toBe('MATCHED');
    const unmatched = lineOf(await act(lineId, 'unmatch'), lineId);
    expect(unmatched).toMatchObject({ status: 'UNMATCHED', suggestion: null, matches: [] });
  });
});

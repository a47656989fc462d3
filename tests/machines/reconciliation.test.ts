import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import {
  type ReconciliationOutcome,
  type ReconciliationRequest,
  reconciliationMachine,
} from '../../machines/reconciliation';
import { describeModel } from './model';
import { reconciliationModel } from './reconciliation.model';

describeModel(reconciliationModel);

describe('reconciliation machine', () => {
  it('sends nothing else while a bulk accept of 5,000 lines is on its way', async () => {
    const sent: ReconciliationRequest[] = [];
    let finish: (value: unknown) => void = () => {};
    const actor = createActor(
      reconciliationMachine.provide({
        actors: {
          perform: fromPromise<ReconciliationOutcome, ReconciliationRequest>(({ input }) => {
            sent.push(input);
            return new Promise<ReconciliationOutcome>(
              (resolve) => (finish = resolve as (value: unknown) => void),
            );
          }),
        },
      }),
    ).start();
    const ids = Array.from({ length: 5_000 }, (_, i) => `line-${i}`);
    actor.send({ type: 'select.add', ids });
    actor.send({ type: 'bulkAccept', idempotencyKey: 'k1' });
    actor.send({ type: 'act', action: { kind: 'unmatch', lineId: 'line-7' } });
    actor.send({ type: 'undo' });
    actor.send({ type: 'bulkAccept', idempotencyKey: 'k2' });
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ kind: 'bulkAccept', idempotencyKey: 'k1' });
    finish({ action: { id: 'a1', kind: 'bulkAccept' }, accepted: 5_000, skipped: 0 });
    await new Promise((resolve) => setTimeout(resolve, 0));
    actor.send({ type: 'act', action: { kind: 'unmatch', lineId: 'line-7' } });
    expect(sent.map((r) => r.kind)).toEqual(['bulkAccept', 'unmatch']);
    actor.stop();
  });
});

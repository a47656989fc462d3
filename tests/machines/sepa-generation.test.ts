import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { type SepaGenerateRequest, sepaGenerationMachine } from '../../machines/sepa-generation';
import { describeModel } from './model';
import { sepaGenerationModel } from './sepa-generation.model';

describeModel(sepaGenerationModel);

describe('sepaGeneration machine', () => {
  it('sends one generate request per attempt, and a retry carries the first key', async () => {
    const sent: SepaGenerateRequest[] = [];
    let fail = true;
    const actor = createActor(
      sepaGenerationMachine.provide({
        actors: {
          dryRun: fromPromise(async () => ({ transferCount: 1 })),
          generate: fromPromise<unknown, SepaGenerateRequest>(async ({ input }) => {
            sent.push(input);
            if (fail) throw { code: 'NETWORK_ERROR' };
            return { file: { id: 'f' } };
          }),
        },
      }),
    ).start();
    actor.send({ type: 'dryRun.request', referenceMonth: '2026-10' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    for (let i = 0; i < 5; i++) actor.send({ type: 'confirm.accept', idempotencyKey: `k${i}` });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(actor.getSnapshot().value).toBe('failed');
    fail = false;
    actor.send({ type: 'retry' });
    actor.send({ type: 'retry' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(actor.getSnapshot().value).toBe('generated');
    expect(sent.map((r) => r.idempotencyKey)).toEqual(['k0', 'k0']);
    actor.stop();
  });
});

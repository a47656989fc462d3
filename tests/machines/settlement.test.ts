import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import {
  type DoctorMonth,
  type SettlementReview,
  type SettleRequest,
  settlementMachine,
} from '../../machines/settlement';
import { describeModel } from './model';
import { settlementModel } from './settlement.model';

describeModel(settlementModel);

describe('settlement machine', () => {
  it('sends one confirmation however many times Enter is pressed while it is in flight', async () => {
    const sent: SettleRequest[] = [];
    const actor = createActor(
      settlementMachine.provide({
        actors: {
          load: fromPromise<SettlementReview, DoctorMonth>(async () => ({
            cases: [
              {
                id: 'a',
                caseId: null,
                grossCents: 1000,
                feeCents: 250,
                netCents: 750,
                adjustedCents: null,
                adjustmentNote: null,
                payableCents: 750,
              },
            ],
            missingFields: [],
          })),
          settle: fromPromise<unknown, SettleRequest>(({ input }) => {
            sent.push(input);
            return new Promise(() => {});
          }),
        },
      }),
    ).start();
    actor.send({ type: 'doctor.select', professionalId: 'p', referenceMonth: '2026-10' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    actor.send({ type: 'settle.request' });
    for (let i = 0; i < 5; i++) actor.send({ type: 'confirm.accept', idempotencyKey: `k${i}` });
    actor.send({ type: 'confirm.cancel' });
    actor.send({ type: 'doctor.select', professionalId: 'q', referenceMonth: '2026-10' });
    expect(actor.getSnapshot().value).toBe('submitting');
    expect(sent).toEqual([
      {
        professionalId: 'p',
        referenceMonth: '2026-10',
        settlementIds: ['a'],
        adjustments: [],
        expectedCount: 1,
        expectedTotalCents: 750,
        idempotencyKey: 'k0',
      },
    ]);
    actor.stop();
  });
});

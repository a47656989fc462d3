import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import {
  type KnownLinesOutcome,
  type KnownLinesQuestion,
  MISMATCH_NOTE_MAX,
  type StatementImportJobView,
  type StatementPreviewOutcome,
  type StatementSubmitRequest,
  statementImportMachine,
} from '../../machines/statement-import';
import { describeModel } from './model';
import { statementImportModel } from './statement-import.model';

describeModel(statementImportModel);

describe('statementImport machine', () => {
  it('sends one upload however often the admin submits while it is on its way, and a retry carries the first key', async () => {
    const sent: StatementSubmitRequest[] = [];
    let fail = true;
    const outcome: StatementPreviewOutcome = {
      format: 'camt053',
      lineCount: 1,
      totalCents: 100,
      problem: null,
      keys: [],
      csv: null,
      statements: [],
    };
    const actor = createActor(
      statementImportMachine.provide({
        actors: {
          read: fromPromise(async () => outcome),
          known: fromPromise<KnownLinesOutcome, { statements: readonly KnownLinesQuestion[] }>(
            () => new Promise(() => {}),
          ),
          submit: fromPromise<StatementImportJobView, StatementSubmitRequest>(async ({ input }) => {
            sent.push(input);
            throw { code: fail ? 'NETWORK_ERROR' : 'STATEMENT_NOTHING_NEW' };
          }),
          poll: fromPromise<StatementImportJobView, { jobId: string }>(() => new Promise(() => {})),
        },
      }),
    ).start();
    actor.send({ type: 'file.chosen', file: { name: 'a.xml', size: 10 } });
    await new Promise((resolve) => setTimeout(resolve, 0));
    for (let i = 0; i < 5; i++) actor.send({ type: 'submit', idempotencyKey: `k${i}` });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(actor.getSnapshot().value).toBe('failed');
    fail = false;
    actor.send({ type: 'retry' });
    actor.send({ type: 'retry' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(actor.getSnapshot().value).toBe('refused');
    expect(sent.map((r) => r.idempotencyKey)).toEqual(['k0', 'k0']);
    actor.stop();
  });

  it('imports a statement whose balances do not add up only with a note of 1–500 characters', async () => {
    const sent: StatementSubmitRequest[] = [];
    const outcome: StatementPreviewOutcome = {
      format: 'mt940',
      lineCount: 1,
      totalCents: 100,
      problem: null,
      keys: ['k'],
      csv: null,
      statements: [
        {
          accountIban: 'PT50000201231234567890154',
          currency: 'EUR',
          statementId: '1',
          sequence: '1',
          periodStart: '2026-05-01',
          periodEnd: '2026-05-01',
          balance: { opening: 0, closing: 99, consistent: false },
          totalCents: 100,
          firstEntry: 0,
          entryCount: 1,
        },
      ],
    };
    const actor = createActor(
      statementImportMachine.provide({
        actors: {
          read: fromPromise(async () => outcome),
          known: fromPromise<KnownLinesOutcome, { statements: readonly KnownLinesQuestion[] }>(
            () => new Promise(() => {}),
          ),
          submit: fromPromise<StatementImportJobView, StatementSubmitRequest>(({ input }) => {
            sent.push(input);
            return new Promise(() => {});
          }),
        },
      }),
    ).start();
    actor.send({ type: 'file.chosen', file: { name: 'a.sta', size: 10 } });
    await new Promise((resolve) => setTimeout(resolve, 0));
    actor.send({ type: 'submit', idempotencyKey: 'k1', mismatchNote: 'x'.repeat(MISMATCH_NOTE_MAX + 1) });
    actor.send({ type: 'submit', idempotencyKey: 'k2' });
    expect(actor.getSnapshot().value).toBe('checking');
    actor.send({ type: 'submit', idempotencyKey: 'k3', mismatchNote: ` ${'y'.repeat(MISMATCH_NOTE_MAX)} ` });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(sent.map((r) => [r.idempotencyKey, r.mismatchNote])).toEqual([
      ['k3', 'y'.repeat(MISMATCH_NOTE_MAX)],
    ]);
    actor.stop();
  });
});

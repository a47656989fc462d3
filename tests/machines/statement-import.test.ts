import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import {
  type KnownLinesOutcome,
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
    };
    const actor = createActor(
      statementImportMachine.provide({
        actors: {
          read: fromPromise(async () => outcome),
          known: fromPromise<KnownLinesOutcome, { keys: readonly string[] }>(() => new Promise(() => {})),
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
});

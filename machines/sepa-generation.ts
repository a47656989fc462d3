import { assign, fromPromise, setup } from 'xstate';
import { errorCodeOf } from './session';

/** What the admin asks a file for: a month, the doctors (omitted: every selectable one), a date. */
export interface SepaRequestBody {
  referenceMonth: string;
  professionalIds?: string[];
  executionDate?: string;
}

/** The part of the dry run's answer the flow decides on (the screen shows the rest as it came). */
export interface SepaDryRunOutcome {
  transferCount: number;
}

export interface SepaGenerateRequest {
  body: SepaRequestBody;
  idempotencyKey: string;
}

/** 'No sepa was created': nothing to pay in what was asked. */
export const NO_SEPA_CREATED = 'NO_SEPA_CREATED';

export interface SepaGenerationContext {
  body: SepaRequestBody | null;
  /** The dry run's answer as it came (the screen reads its own contract type from it). */
  dryRun: SepaDryRunOutcome | null;
  /** Created when the admin confirms; every retry of that confirmation sends the same one. */
  idempotencyKey: string | null;
  /** The generate call's answer as it came. */
  generated: unknown;
  notice: 'selectDoctors' | null;
  /** Server code of the last failure, translated by the screen. */
  error: string | null;
}

export type SepaGenerationEvent =
  | ({ type: 'dryRun.request' } & SepaRequestBody)
  | { type: 'confirm.accept'; idempotencyKey: string }
  | { type: 'confirm.cancel' }
  | { type: 'retry' }
  | { type: 'restart' };

const notProvided = (name: string) => () => {
  throw new Error(`sepaGeneration machine: actor "${name}" must be provided`);
};

const FRESH: SepaGenerationContext = {
  body: null,
  dryRun: null,
  idempotencyKey: null,
  generated: null,
  notice: null,
  error: null,
};

/**
 * Generating a SEPA file (issue 11 item 5): select doctors → dry run (count, total, execution date,
 * excluded) → confirm → generating → generated (downloads offered) | failed → retry with the SAME
 * idempotency key, so a repeat can only ever answer the first file. 'No sepa was created' when there
 * is nothing to pay. A second Enter while generating is not an event the state listens to.
 */
export const sepaGenerationMachine = setup({
  types: {
    context: {} as SepaGenerationContext,
    events: {} as SepaGenerationEvent,
  },
  actors: {
    dryRun: fromPromise<SepaDryRunOutcome, SepaRequestBody>(notProvided('dryRun')),
    generate: fromPromise<unknown, SepaGenerateRequest>(notProvided('generate')),
  },
  actions: {
    // The console refreshes the lists and the history here; tests count the calls.
    reportGenerated: (_, _params: { output: unknown }) => {},
  },
  guards: {
    choseSomeone: (_, params: { body: SepaRequestBody }) =>
      params.body.professionalIds === undefined || params.body.professionalIds.length > 0,
    nothingToPay: (_, params: { outcome: SepaDryRunOutcome }) => params.outcome.transferCount === 0,
    refusedNothingToPay: (_, params: { error: unknown }) => errorCodeOf(params.error) === NO_SEPA_CREATED,
  },
}).createMachine({
  id: 'sepaGeneration',
  initial: 'selecting',
  context: FRESH,
  states: {
    selecting: {
      on: {
        'dryRun.request': [
          {
            guard: { type: 'choseSomeone', params: ({ event }) => ({ body: bodyOf(event) }) },
            target: 'dryRunning',
            actions: assign(({ event }) => ({ ...FRESH, body: bodyOf(event) })),
          },
          { actions: assign({ notice: 'selectDoctors' }) },
        ],
      },
    },
    dryRunning: {
      tags: ['busy'],
      invoke: {
        id: 'dryRun',
        src: 'dryRun',
        input: ({ context }) => context.body as SepaRequestBody,
        onDone: [
          {
            guard: { type: 'nothingToPay', params: ({ event }) => ({ outcome: event.output }) },
            target: 'nothingToPay',
            actions: assign({ dryRun: ({ event }) => event.output }),
          },
          { target: 'confirming', actions: assign({ dryRun: ({ event }) => event.output }) },
        ],
        onError: [
          {
            guard: { type: 'refusedNothingToPay', params: ({ event }) => ({ error: event.error }) },
            target: 'nothingToPay',
          },
          { target: 'selecting', actions: assign({ error: ({ event }) => errorCodeOf(event.error) }) },
        ],
      },
    },
    confirming: {
      tags: ['dialog'],
      on: {
        'confirm.accept': {
          target: 'generating',
          actions: assign({ idempotencyKey: ({ event }) => event.idempotencyKey }),
        },
        'confirm.cancel': { target: 'selecting', actions: assign({ dryRun: null }) },
      },
    },
    generating: {
      tags: ['dialog', 'busy'],
      invoke: {
        id: 'generate',
        src: 'generate',
        input: ({ context }) => ({
          body: context.body as SepaRequestBody,
          idempotencyKey: context.idempotencyKey as string,
        }),
        onDone: {
          target: 'generated',
          actions: [
            assign({ generated: ({ event }) => event.output }),
            { type: 'reportGenerated', params: ({ event }) => ({ output: event.output }) },
          ],
        },
        onError: [
          {
            guard: { type: 'refusedNothingToPay', params: ({ event }) => ({ error: event.error }) },
            target: 'nothingToPay',
          },
          { target: 'failed', actions: assign({ error: ({ event }) => errorCodeOf(event.error) }) },
        ],
      },
    },
    failed: {
      tags: ['dialog'],
      on: {
        retry: { target: 'generating', actions: assign({ error: null }) },
        // Giving up forgets the key: a later generation is a new request, checked afresh by the server.
        'confirm.cancel': { target: 'selecting', actions: assign({ ...FRESH }) },
      },
    },
    generated: {
      tags: ['downloads'],
      on: { restart: { target: 'selecting', actions: assign({ ...FRESH }) } },
    },
    nothingToPay: {
      on: { restart: { target: 'selecting', actions: assign({ ...FRESH }) } },
    },
  },
});

function bodyOf(event: SepaGenerationEvent): SepaRequestBody {
  if (event.type !== 'dryRun.request') throw new Error(`no request body in ${event.type}`);
  const { referenceMonth, professionalIds, executionDate } = event;
  return {
    referenceMonth,
    ...(professionalIds ? { professionalIds } : {}),
    ...(executionDate ? { executionDate } : {}),
  };
}

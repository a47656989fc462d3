import { assign, fromPromise, setup } from 'xstate';
import type { z } from 'zod';
import type { settlementItemSchema } from '../contract/finance';
import type { MissingField } from '../contract/statuses';
import { errorCodeOf } from './session';

/** One of the doctor's settlements of the month, as the review shows it. */
export type SettlementCase = Pick<
  z.infer<typeof settlementItemSchema>,
  | 'id'
  | 'caseId'
  | 'grossCents'
  | 'feeCents'
  | 'netCents'
  | 'adjustedCents'
  | 'adjustmentNote'
  | 'payableCents'
>;

export interface DoctorMonth {
  professionalId: string;
  referenceMonth: string;
}

/** What loading a doctor's month answers: the cases waiting to be settled and what the doctor lacks. */
export interface SettlementReview {
  cases: SettlementCase[];
  missingFields: MissingField[];
}

/** What confirming sends: exactly the cases shown and the total the admin saw. */
export interface SettleRequest extends DoctorMonth {
  settlementIds: string[];
  expectedPayableCents: number;
  idempotencyKey: string;
}

export interface AdjustRequest {
  settlementId: string;
  adjustedCents: number;
  note: string;
}

/** Refusal codes the flow reacts to; any other code is a failure the admin may retry. */
export const SETTLEMENT_REFUSALS = {
  missingInformation: 'PROFESSIONAL_MISSING_INFORMATION',
  totalChanged: 'SETTLEMENT_TOTAL_CHANGED',
} as const;

export type SettlementNotice = 'selectDoctor' | 'nothingIncluded' | 'totalChanged' | null;

export interface SettlementContext {
  doctor: DoctorMonth | null;
  cases: SettlementCase[];
  missingFields: MissingField[];
  /** Ids of the shown cases the admin left out (`x`). */
  excluded: string[];
  /** One key per confirmation, kept across retries so the server applies it once. */
  idempotencyKey: string | null;
  notice: SettlementNotice;
  /** Server code of the last failure (load, adjust or settle), translated by the screen. */
  error: string | null;
}

export type SettlementEvent =
  | ({ type: 'doctor.select' } & DoctorMonth)
  | { type: 'case.toggle'; settlementId: string }
  | ({ type: 'case.adjust' } & AdjustRequest)
  | { type: 'settle.request' }
  | { type: 'confirm.accept'; idempotencyKey: string }
  | { type: 'confirm.cancel' }
  | { type: 'retry' };

export const includedCases = (context: Pick<SettlementContext, 'cases' | 'excluded'>) =>
  context.cases.filter((c) => !context.excluded.includes(c.id));

export const includedTotalCents = (context: Pick<SettlementContext, 'cases' | 'excluded'>) =>
  includedCases(context).reduce((sum, c) => sum + c.payableCents, 0);

const notProvided = (name: string) => () => {
  throw new Error(`settlement machine: actor "${name}" must be provided`);
};

/**
 * Choosing a doctor (again) starts a fresh review. Not offered while a dialog is open or a request
 * that changes money is in flight (adjusting, confirming, submitting, failed).
 */
const chooseDoctor = {
  'doctor.select': { target: '#settlement.loading', reenter: true, actions: 'selectDoctor' },
} as const;

/**
 * Settling one doctor's month (issue 11 item 2): select a doctor → load their cases → review
 * (exclude, adjust with a note) → confirm the count and total → submitting → done. A doctor with
 * missing information stops at `missingInformation`; a total that changed meanwhile reloads.
 */
export const settlementMachine = setup({
  types: {
    context: {} as SettlementContext,
    events: {} as SettlementEvent,
  },
  actors: {
    load: fromPromise<SettlementReview, DoctorMonth>(notProvided('load')),
    adjust: fromPromise<unknown, AdjustRequest>(notProvided('adjust')),
    settle: fromPromise<unknown, SettleRequest>(notProvided('settle')),
  },
  actions: {
    selectDoctor: assign(({ event }) => {
      if (event.type !== 'doctor.select') return {};
      return {
        doctor: { professionalId: event.professionalId, referenceMonth: event.referenceMonth },
        cases: [],
        missingFields: [],
        excluded: [],
        idempotencyKey: null,
        notice: null,
        error: null,
      };
    }),
    // The console refreshes its lists and says so in a toast; tests count the calls.
    reportSettled: (_, _params: { request: SettleRequest }) => {},
  },
  guards: {
    hasMissingInformation: (_, params: { review: SettlementReview }) =>
      params.review.missingFields.length > 0,
    anyIncluded: ({ context }) => includedCases(context).length > 0,
    adjustmentHasNote: (_, params: { note: string; adjustedCents: number }) =>
      params.note.trim().length > 0 &&
      Number.isSafeInteger(params.adjustedCents) &&
      params.adjustedCents >= 0,
    refusedFor: (_, params: { error: unknown; code: string }) => errorCodeOf(params.error) === params.code,
  },
}).createMachine({
  id: 'settlement',
  initial: 'idle',
  context: {
    doctor: null,
    cases: [],
    missingFields: [],
    excluded: [],
    idempotencyKey: null,
    notice: null,
    error: null,
  },
  states: {
    idle: {
      on: {
        ...chooseDoctor,
        // 'Select one Doctor ID': nothing can be confirmed before a doctor is chosen.
        'settle.request': { actions: assign({ notice: 'selectDoctor' }) },
      },
    },
    loading: {
      tags: ['busy'],
      on: chooseDoctor,
      invoke: {
        id: 'load',
        src: 'load',
        input: ({ context }) => context.doctor as DoctorMonth,
        onDone: [
          {
            guard: { type: 'hasMissingInformation', params: ({ event }) => ({ review: event.output }) },
            target: 'missingInformation',
            actions: assign(({ event }) => ({
              cases: event.output.cases,
              missingFields: event.output.missingFields,
              excluded: [],
            })),
          },
          {
            target: 'reviewing',
            actions: assign(({ context, event }) => ({
              cases: event.output.cases,
              missingFields: [],
              // After a reload the admin's exclusions hold for the cases that are still there.
              excluded: context.excluded.filter((id) => event.output.cases.some((c) => c.id === id)),
            })),
          },
        ],
        onError: {
          target: 'loadFailed',
          actions: assign({ error: ({ event }) => errorCodeOf(event.error) }),
        },
      },
    },
    loadFailed: {
      on: { ...chooseDoctor, retry: { target: 'loading', actions: assign({ error: null }) } },
    },
    reviewing: {
      on: {
        ...chooseDoctor,
        'case.toggle': {
          actions: assign({
            notice: null,
            excluded: ({ context, event }) =>
              context.excluded.includes(event.settlementId)
                ? context.excluded.filter((id) => id !== event.settlementId)
                : context.cases.some((c) => c.id === event.settlementId)
                  ? [...context.excluded, event.settlementId]
                  : context.excluded,
          }),
        },
        'case.adjust': {
          guard: {
            type: 'adjustmentHasNote',
            params: ({ event }) => ({ note: event.note, adjustedCents: event.adjustedCents }),
          },
          target: 'adjusting',
        },
        'settle.request': [
          { guard: 'anyIncluded', target: 'confirming', actions: assign({ notice: null, error: null }) },
          { actions: assign({ notice: 'nothingIncluded' }) },
        ],
      },
    },
    adjusting: {
      tags: ['busy'],
      invoke: {
        id: 'adjust',
        src: 'adjust',
        input: ({ event }) => {
          const { settlementId, adjustedCents, note } = event as Extract<
            SettlementEvent,
            { type: 'case.adjust' }
          >;
          return { settlementId, adjustedCents, note };
        },
        // The adjusted amount changes the total: read it again rather than compute it here.
        onDone: { target: 'loading', actions: assign({ notice: null, error: null }) },
        onError: { target: 'reviewing', actions: assign({ error: ({ event }) => errorCodeOf(event.error) }) },
      },
    },
    confirming: {
      tags: ['dialog'],
      on: {
        'confirm.accept': {
          target: 'submitting',
          actions: assign({ idempotencyKey: ({ event }) => event.idempotencyKey }),
        },
        'confirm.cancel': { target: 'reviewing', actions: assign({ idempotencyKey: null }) },
      },
    },
    submitting: {
      tags: ['dialog', 'busy'],
      invoke: {
        id: 'settle',
        src: 'settle',
        input: ({ context }) => settleRequestOf(context),
        onDone: {
          target: 'done',
          actions: {
            type: 'reportSettled',
            params: ({ context }) => ({ request: settleRequestOf(context) }),
          },
        },
        onError: [
          {
            guard: {
              type: 'refusedFor',
              params: ({ event }) => ({ error: event.error, code: SETTLEMENT_REFUSALS.missingInformation }),
            },
            target: 'loading',
            actions: assign({ idempotencyKey: null }),
          },
          {
            guard: {
              type: 'refusedFor',
              params: ({ event }) => ({ error: event.error, code: SETTLEMENT_REFUSALS.totalChanged }),
            },
            target: 'loading',
            actions: assign({ idempotencyKey: null, notice: 'totalChanged' }),
          },
          { target: 'failed', actions: assign({ error: ({ event }) => errorCodeOf(event.error) }) },
        ],
      },
    },
    failed: {
      tags: ['dialog'],
      on: {
        // The same key: if the first attempt did reach the server, it answers what it did then.
        retry: { target: 'submitting', actions: assign({ error: null }) },
        'confirm.cancel': { target: 'reviewing', actions: assign({ error: null, idempotencyKey: null }) },
      },
    },
    missingInformation: {
      on: { ...chooseDoctor, retry: { target: 'loading', actions: assign({ error: null }) } },
    },
    done: { on: chooseDoctor },
  },
});

function settleRequestOf(context: SettlementContext): SettleRequest {
  const doctor = context.doctor as DoctorMonth;
  return {
    professionalId: doctor.professionalId,
    referenceMonth: doctor.referenceMonth,
    settlementIds: includedCases(context).map((c) => c.id),
    expectedPayableCents: includedTotalCents(context),
    idempotencyKey: context.idempotencyKey as string,
  };
}

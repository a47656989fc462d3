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

/** An included case's payout set by the admin while reviewing; the note says why. */
export interface Adjustment {
  settlementId: string;
  adjustedCents: number;
  note: string;
}

/** What confirming sends: exactly the cases included, their adjustments, the count and total shown. */
export interface SettleRequest extends DoctorMonth {
  settlementIds: string[];
  adjustments: Adjustment[];
  expectedCount: number;
  expectedTotalCents: number;
  idempotencyKey: string;
}

/**
 * Refusal codes the flow reacts to (contract/finance.ts `settlementRefusalSchema`); any other code is
 * a failure the admin may retry. The month changed under the admin: another admin settled or deleted a
 * case, a refund came in — the review is read again.
 */
export const SETTLEMENT_REFUSALS = {
  missingInformation: ['PROFESSIONAL_MISSING_DATA'],
  monthChanged: ['SETTLEMENT_TOTAL_CHANGED', 'SETTLEMENT_NOT_SETTLEABLE'],
} as const;

export type SettlementNotice = 'selectDoctor' | 'nothingIncluded' | 'totalChanged' | null;

export interface SettlementContext {
  doctor: DoctorMonth | null;
  cases: SettlementCase[];
  missingFields: MissingField[];
  /** Ids of the shown cases the admin left out (`x`). */
  excluded: string[];
  /** Payouts the admin set while reviewing, sent with the confirmation. */
  adjustments: Adjustment[];
  /** One key per confirmation, kept across retries so the server applies it once. */
  idempotencyKey: string | null;
  notice: SettlementNotice;
  /** Server code of the last failure (load or settle), translated by the screen. */
  error: string | null;
}

export type SettlementEvent =
  | ({ type: 'doctor.select' } & DoctorMonth)
  | { type: 'case.toggle'; settlementId: string }
  | ({ type: 'case.adjust' } & Adjustment)
  | { type: 'case.unadjust'; settlementId: string }
  | { type: 'doctor.clear' }
  | { type: 'settle.request' }
  | { type: 'confirm.accept'; idempotencyKey: string }
  | { type: 'confirm.cancel' }
  | { type: 'retry' };

type Review = Pick<SettlementContext, 'cases' | 'excluded' | 'adjustments'>;

export const includedCases = (context: Review) =>
  context.cases.filter((c) => !context.excluded.includes(c.id));

/** What a case pays once reviewed: the admin's adjustment, else what the server says it pays. */
export const reviewedPayableCents = (context: Review, item: SettlementCase) =>
  context.adjustments.find((a) => a.settlementId === item.id)?.adjustedCents ?? item.payableCents;

export const includedTotalCents = (context: Review) =>
  includedCases(context).reduce((sum, c) => sum + reviewedPayableCents(context, c), 0);

const notProvided = (name: string) => () => {
  throw new Error(`settlement machine: actor "${name}" must be provided`);
};

const NO_DOCTOR: SettlementContext = {
  doctor: null,
  cases: [],
  missingFields: [],
  excluded: [],
  adjustments: [],
  idempotencyKey: null,
  notice: null,
  error: null,
};

/**
 * Choosing a doctor (again) starts a fresh review; going back to the list forgets it. Not offered while a dialog is open or a request
 * that changes money is in flight (confirming, submitting, failed).
 */
const chooseDoctor = {
  'doctor.select': { target: '#settlement.loading', reenter: true, actions: 'selectDoctor' },
  'doctor.clear': { target: '#settlement.idle', actions: 'clearDoctor' },
} as const;

/**
 * Settling one doctor's month (issue 11 item 2): select a doctor → load their cases → review
 * (exclude, adjust with a note — held here, sent with the confirmation so it is all or nothing) → confirm the count and total → submitting → done. A doctor with
 * missing information stops at `missingInformation`; a total that changed meanwhile reloads.
 */
export const settlementMachine = setup({
  types: {
    context: {} as SettlementContext,
    events: {} as SettlementEvent,
  },
  actors: {
    load: fromPromise<SettlementReview, DoctorMonth>(notProvided('load')),
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
        adjustments: [],
        idempotencyKey: null,
        notice: null,
        error: null,
      };
    }),
    clearDoctor: assign(() => ({ ...NO_DOCTOR })),
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
    refusedFor: (_, params: { error: unknown; codes: readonly string[] }) =>
      params.codes.includes(errorCodeOf(params.error)),
  },
}).createMachine({
  id: 'settlement',
  initial: 'idle',
  context: NO_DOCTOR,
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
              adjustments: [],
            })),
          },
          {
            target: 'reviewing',
            actions: assign(({ context, event }) => {
              // After a reload the admin's choices hold for the cases that are still there.
              const present = (id: string) => event.output.cases.some((c) => c.id === id);
              return {
                cases: event.output.cases,
                missingFields: [],
                excluded: context.excluded.filter(present),
                adjustments: context.adjustments.filter((a) => present(a.settlementId)),
              };
            }),
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
          actions: assign({
            notice: null,
            adjustments: ({ context, event }) =>
              context.cases.some((c) => c.id === event.settlementId)
                ? [
                    ...context.adjustments.filter((a) => a.settlementId !== event.settlementId),
                    {
                      settlementId: event.settlementId,
                      adjustedCents: event.adjustedCents,
                      note: event.note.trim(),
                    },
                  ]
                : context.adjustments,
          }),
        },
        'case.unadjust': {
          actions: assign({
            adjustments: ({ context, event }) =>
              context.adjustments.filter((a) => a.settlementId !== event.settlementId),
          }),
        },
        'settle.request': [
          { guard: 'anyIncluded', target: 'confirming', actions: assign({ notice: null, error: null }) },
          { actions: assign({ notice: 'nothingIncluded' }) },
        ],
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
              params: ({ event }) => ({ error: event.error, codes: SETTLEMENT_REFUSALS.missingInformation }),
            },
            target: 'loading',
            actions: assign({ idempotencyKey: null }),
          },
          {
            guard: {
              type: 'refusedFor',
              params: ({ event }) => ({ error: event.error, codes: SETTLEMENT_REFUSALS.monthChanged }),
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
  const settlementIds = includedCases(context).map((c) => c.id);
  return {
    professionalId: doctor.professionalId,
    referenceMonth: doctor.referenceMonth,
    settlementIds,
    adjustments: context.adjustments.filter((a) => settlementIds.includes(a.settlementId)),
    expectedCount: settlementIds.length,
    expectedTotalCents: includedTotalCents(context),
    idempotencyKey: context.idempotencyKey as string,
  };
}

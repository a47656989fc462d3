import { expect } from 'vitest';
import type { AnyMachineSnapshot } from 'xstate';
import { includedTotalCents, type SettleRequest, settlementMachine } from '../../machines/settlement';
import type { Expected, MachineModel, ModelEvent, Observed } from './model';

/**
 * Settling a doctor's month as issue 11 (item 2) and the specification describe it, written without
 * reading the machine: select a doctor ('Select one Doctor ID' before), their cases with gross/fee/net,
 * exclude with `x`, adjust with a note, confirm count and total, SETTLED; missing information stops it
 * with the missing fields; a total that changed meanwhile is refused and reloaded.
 */

const DOCTOR = { professionalId: '00000000-0000-4000-8000-0000000000d1', referenceMonth: '2026-10' };
const CASE_A = {
  id: '00000000-0000-4000-8000-00000000000a',
  caseId: '00000000-0000-4000-8000-0000000000ca',
  grossCents: 4000,
  feeCents: 640,
  netCents: 3360,
  adjustedCents: null,
  adjustmentNote: null,
  payableCents: 3360,
};
const CASE_B = {
  ...CASE_A,
  id: '00000000-0000-4000-8000-00000000000b',
  grossCents: 1500,
  feeCents: 250,
  netCents: 1250,
  payableCents: 1250,
};
const COMPLETE = { cases: [CASE_A, CASE_B], missingFields: [] };
const MISSING = { cases: [CASE_A], missingFields: ['iban', 'taxNumber'] };
const KEY = 'key-1';

export interface SettlementExpected extends Expected {
  /** The cases in the review, which the admin left out and the payouts they set (with the note). */
  cases: Array<{ id: string; payableCents: number }>;
  excluded: string[];
  adjustments: Array<{ settlementId: string; adjustedCents: number; note: string }>;
  missingFields: string[];
  /** The message line: 'Select one Doctor ID', nothing included, the total changed. */
  notice: 'selectDoctor' | 'nothingIncluded' | 'totalChanged' | null;
  error: string | null;
  /** The confirmation dialog: closed, asking (count + total), working, failed with retry. */
  dialog: 'closed' | 'asking' | 'working' | 'failed';
  /** The key the confirmation was sent with, the same on every retry. */
  key: string | null;
  /** Settled requests the console was told about (toast + refresh), once per success. */
  reports: SettleRequest[];
}

const included = (e: SettlementExpected) => e.cases.filter((c) => !e.excluded.includes(c.id));
const payable = (e: SettlementExpected, c: { id: string; payableCents: number }) =>
  e.adjustments.find((x) => x.settlementId === c.id)?.adjustedCents ?? c.payableCents;
const total = (e: SettlementExpected) => included(e).reduce((sum, c) => sum + payable(e, c), 0);
const countIncluded = (e: SettlementExpected) => included(e).length;
// An excluded case keeps its adjustment on screen, but only included cases are sent.
const settleRequest = (e: SettlementExpected, key: string): SettleRequest => ({
  ...DOCTOR,
  settlementIds: included(e).map((c) => c.id),
  adjustments: e.adjustments.filter((x) => included(e).some((c) => c.id === x.settlementId)),
  expectedCount: countIncluded(e),
  expectedTotalCents: total(e),
  idempotencyKey: key,
});

const load = (e: SettlementExpected, extra: Partial<SettlementExpected> = {}): SettlementExpected => ({
  ...e,
  state: 'loading',
  dialog: 'closed',
  error: null,
  requests: [...e.requests, { actor: 'load', input: DOCTOR }],
  ...extra,
});
const choose = (e: SettlementExpected): SettlementExpected =>
  load(e, { cases: [], excluded: [], adjustments: [], missingFields: [], notice: null, key: null });
const backToList = (e: SettlementExpected): SettlementExpected => ({
  ...e,
  state: 'idle',
  cases: [],
  excluded: [],
  adjustments: [],
  missingFields: [],
  notice: null,
  error: null,
  key: null,
});
const loaded = (e: SettlementExpected, ev: ModelEvent): SettlementExpected => {
  const review = ev.output as typeof COMPLETE | typeof MISSING;
  const cases = review.cases.map((c) => ({ id: c.id, payableCents: c.payableCents }));
  if (review.missingFields.length > 0)
    return {
      ...e,
      state: 'missingInformation',
      cases,
      excluded: [],
      adjustments: [],
      missingFields: review.missingFields,
    };
  // A reload keeps the admin's choices for the cases still there.
  return {
    ...e,
    state: 'reviewing',
    cases,
    missingFields: [],
    excluded: e.excluded.filter((id) => cases.some((c) => c.id === id)),
    adjustments: e.adjustments.filter((a) => cases.some((c) => c.id === a.settlementId)),
  };
};
const toggle = (e: SettlementExpected, ev: ModelEvent): SettlementExpected => {
  const id = ev.settlementId as string;
  const excluded = e.excluded.includes(id) ? e.excluded.filter((x) => x !== id) : [...e.excluded, id];
  return { ...e, excluded, notice: null };
};
// The adjusted amount needs a note: without one nothing changes. Nothing is sent before confirming.
const adjust = (e: SettlementExpected, ev: ModelEvent): SettlementExpected => {
  const note = String(ev.note).trim();
  if (note === '') return e;
  const settlementId = ev.settlementId as string;
  return {
    ...e,
    notice: null,
    adjustments: [
      ...e.adjustments.filter((a) => a.settlementId !== settlementId),
      { settlementId, adjustedCents: ev.adjustedCents as number, note },
    ],
  };
};
const unadjust = (e: SettlementExpected, ev: ModelEvent): SettlementExpected => ({
  ...e,
  adjustments: e.adjustments.filter((a) => a.settlementId !== ev.settlementId),
});
const submit = (e: SettlementExpected, key: string): SettlementExpected => ({
  ...e,
  state: 'submitting',
  dialog: 'working',
  error: null,
  key,
  requests: [...e.requests, { actor: 'settle', input: settleRequest(e, key) }],
});
const backToReview = (e: SettlementExpected): SettlementExpected => ({
  ...e,
  state: 'reviewing',
  dialog: 'closed',
  error: null,
  key: null,
});

/** What the settle panel reads from the snapshot (mirrors the screen). */
function panel(snapshot: AnyMachineSnapshot) {
  return {
    dialogOpen: snapshot.hasTag('dialog'),
    busy: snapshot.hasTag('busy'),
    notice: snapshot.context.notice,
    error: snapshot.context.error,
    missingFields: snapshot.context.missingFields,
    excluded: snapshot.context.excluded,
    adjustments: snapshot.context.adjustments,
    totalCents: includedTotalCents(snapshot.context),
    caseIds: snapshot.context.cases.map((c: { id: string }) => c.id),
  };
}

const looks =
  (dialogOpen: boolean, busy: boolean) =>
  ({ world, snapshot }: Observed<{ reports: SettleRequest[] }>, e: SettlementExpected) => {
    expect(panel(snapshot)).toEqual({
      dialogOpen,
      busy,
      notice: e.notice,
      error: e.error,
      missingFields: e.missingFields,
      excluded: e.excluded,
      adjustments: e.adjustments,
      totalCents: total(e),
      caseIds: e.cases.map((c) => c.id),
    });
    expect(world.reports).toEqual(e.reports);
    if (e.dialog !== 'closed') expect(snapshot.context.idempotencyKey).toBe(e.key);
  };

export const settlementModel: MachineModel<undefined, { reports: SettleRequest[] }, SettlementExpected> = {
  name: 'settlement',
  machine: settlementMachine,
  starts: [{ name: 'the cases-to-process screen', input: undefined }],
  events: {
    'select doctor': { type: 'doctor.select', ...DOCTOR },
    'load: complete doctor': { type: 'xstate.done.actor.load', output: COMPLETE },
    'load: doctor without IBAN and tax number': { type: 'xstate.done.actor.load', output: MISSING },
    'load: fails': { type: 'xstate.error.actor.load', error: { code: 'GENERIC_ERROR' } },
    'x on case A': { type: 'case.toggle', settlementId: CASE_A.id },
    'x on case B': { type: 'case.toggle', settlementId: CASE_B.id },
    'adjust A with a note': {
      type: 'case.adjust',
      settlementId: CASE_A.id,
      adjustedCents: 3000,
      note: ' agreed discount ',
    },
    'adjust A without a note': {
      type: 'case.adjust',
      settlementId: CASE_A.id,
      adjustedCents: 3000,
      note: '  ',
    },
    'undo the adjustment of A': { type: 'case.unadjust', settlementId: CASE_A.id },
    'back to the doctors': { type: 'doctor.clear' },
    confirm: { type: 'settle.request' },
    Enter: { type: 'confirm.accept', idempotencyKey: KEY },
    'Enter again': { type: 'confirm.accept', idempotencyKey: 'key-2' },
    Esc: { type: 'confirm.cancel' },
    retry: { type: 'retry' },
    'settle: ok': { type: 'xstate.done.actor.settle', output: { settled: 2 } },
    'settle: missing information': {
      type: 'xstate.error.actor.settle',
      error: { code: 'PROFESSIONAL_MISSING_DATA' },
    },
    'settle: total changed': {
      type: 'xstate.error.actor.settle',
      error: { code: 'SETTLEMENT_TOTAL_CHANGED' },
    },
    'settle: a case was settled elsewhere': {
      type: 'xstate.error.actor.settle',
      error: { code: 'SETTLEMENT_NOT_SETTLEABLE' },
    },
    'settle: network': { type: 'xstate.error.actor.settle', error: { code: 'NETWORK_ERROR' } },
  },
  // The exclusions shape what confirming sends; the rest of the context only shapes what is shown.
  serializeState: (s) =>
    JSON.stringify({
      value: s.value,
      excluded: [...s.context.excluded].sort(),
      adjusted: s.context.adjustments.length,
    }),
  actors: ['load', 'settle'],
  world: () => {
    const world = { reports: [] as SettleRequest[] };
    return {
      world,
      actions: {
        reportSettled: (_: unknown, p: { request: SettleRequest }) => world.reports.push(p.request),
      },
    };
  },
  initial: () => ({
    state: 'idle',
    requests: [],
    cases: [],
    excluded: [],
    adjustments: [],
    missingFields: [],
    notice: null,
    error: null,
    dialog: 'closed',
    key: null,
    reports: [],
  }),
  transitions: {
    idle: {
      'doctor.select': choose,
      'doctor.clear': backToList,
      'settle.request': (e) => ({ ...e, notice: 'selectDoctor' }),
    },
    loading: {
      'doctor.select': choose,
      'doctor.clear': backToList,
      'xstate.done.actor.load': loaded,
      'xstate.error.actor.load': (e) => ({
        ...e,
        state: 'loadFailed',
        error: 'GENERIC_ERROR',
      }),
    },
    loadFailed: {
      'doctor.select': choose,
      'doctor.clear': backToList,
      retry: (e) => load(e),
    },
    reviewing: {
      'doctor.select': choose,
      'doctor.clear': backToList,
      'case.toggle': toggle,
      'case.adjust': adjust,
      'case.unadjust': unadjust,
      'settle.request': (e) =>
        countIncluded(e) === 0
          ? { ...e, notice: 'nothingIncluded' }
          : { ...e, state: 'confirming', dialog: 'asking', notice: null, error: null },
    },
    confirming: {
      'confirm.accept': (e, ev) => submit(e, ev.idempotencyKey as string),
      'confirm.cancel': backToReview,
    },
    // In flight: a second Enter sends nothing, Esc cannot take it back, no other doctor can be chosen.
    submitting: {
      'xstate.done.actor.settle': (e) => ({
        ...e,
        state: 'done',
        dialog: 'closed',
        reports: [...e.reports, settleRequest(e, e.key as string)],
      }),
      'xstate.error.actor.settle': (e, ev) => {
        const code = (ev.error as { code: string }).code;
        if (code === 'PROFESSIONAL_MISSING_DATA') return load(e, { key: null });
        if (code === 'SETTLEMENT_TOTAL_CHANGED' || code === 'SETTLEMENT_NOT_SETTLEABLE')
          return load(e, { key: null, notice: 'totalChanged' });
        return { ...e, state: 'failed', dialog: 'failed', error: code };
      },
    },
    failed: {
      retry: (e) => submit(e, e.key as string),
      'confirm.cancel': backToReview,
    },
    missingInformation: {
      'doctor.select': choose,
      'doctor.clear': backToList,
      retry: (e) => load(e),
    },
    done: { 'doctor.select': choose, 'doctor.clear': backToList },
  },
  states: {
    idle: looks(false, false),
    loading: looks(false, true),
    loadFailed: looks(false, false),
    reviewing: looks(false, false),
    confirming: looks(true, false),
    submitting: looks(true, true),
    failed: looks(true, false),
    missingInformation: looks(false, false),
    done: looks(false, false),
  },
  limit: 2000,
};

import { expect } from 'vitest';
import { reconciliationMachine } from '../../machines/reconciliation';
import type { Expected, MachineModel, Observed } from './model';

/**
 * The reconciliation table as issue 12 (item 5) and issue 32 (point 4) describe it, written without
 * reading the machine:
 * `x`/`Shift+x` select, `Esc` clears; `a`, `1`–`3`, `m`, `i`, `u`, `n` each send one line's action,
 * `Shift+a` accepts every selected suggestion at once, `z` undoes the last action done here. Nothing is
 * sent while an action is on its way (a bulk accept cannot interleave with an unmatch), and a row
 * changes only with the server's answer. A bulk accept empties the selection; a failure keeps it and
 * says why; an undo refused as stale leaves the stack (it can never be undone). With nothing selected
 * over a "score ≥ x" filter, `Shift+a` asks the server how many suggestions the filter selects and their
 * sum, shows them, and only Enter accepts them (all pages, server-side, as counted then); Esc, a failed
 * count or a count of none accepts nothing. With a selection, `Shift+a` accepts the selection.
 */

const L1 = '00000000-0000-4000-8000-0000000000a1';
const L2 = '00000000-0000-4000-8000-0000000000a2';
const L3 = '00000000-0000-4000-8000-0000000000a3';
const row = (id: string, status: string) => ({ id, status });
interface Answer {
  action: { id: string; kind: string };
  lines?: unknown[];
  accepted?: number;
  skipped?: number;
  skippedBecause?: {
    notSuggested: number;
    counterpartTaken: number;
    amountDiffers: number;
    changedMeanwhile?: number;
  };
  remaining?: number;
}
const answer = (id: string, kind: string, lines: unknown[]): Answer => ({ action: { id, kind }, lines });
const ACCEPTED = answer('act-1', 'accept', [row(L1, 'MATCHED')]);
const UNMATCHED = answer('act-2', 'unmatch', [row(L2, 'UNMATCHED')]);
/** A bulk accept answers counts, not rows (decision 0108): the table reads its page again. */
const BULK: Answer = {
  action: { id: 'act-3', kind: 'bulkAccept' },
  accepted: 2,
  skipped: 1,
  skippedBecause: { notSuggested: 0, counterpartTaken: 0, amountDiffers: 1 },
};
/** The score filter `Shift+a` accepts over, and the server's count of it. */
const FILTER = { minScore: 0.95, statementFileId: '00000000-0000-4000-8000-0000000000f1' };
const COUNTED = { count: 40, sumCents: 123_450, asOf: '2026-11-28T01:00:00.000Z' };
const COUNTED_NONE = { count: 0, sumCents: 0, asOf: '2026-11-28T01:00:01.000Z' };
/** The filtered accept answers counts too, with the lines changed since the count and those left over. */
const FILTER_ACCEPTED: Answer = {
  action: { id: 'act-5', kind: 'BULK_ACCEPT' },
  accepted: 38,
  skipped: 2,
  skippedBecause: { notSuggested: 0, counterpartTaken: 1, amountDiffers: 0, changedMeanwhile: 1 },
  remaining: 0,
};
/** So does the undo of a bulk accept: how many lines it put back. */
const BULK_UNDONE = { action: { id: 'act-4', kind: 'UNDO' }, undone: 2 };

export interface ReconciliationExpected extends Expected {
  selected: string[];
  /** Action ids `z` would undo, last on top. */
  undo: string[];
  bulk: {
    accepted: number;
    skipped: number;
    skippedBecause: Answer['skippedBecause'] | null;
    remaining: number;
  } | null;
  /** The filter being accepted and the count the confirmation shows (null until counted). */
  filterAccept: { filter: typeof FILTER; totals: typeof COUNTED | null } | null;
  error: string | null;
  /** Rows handed to the table, answer by answer. */
  applied: unknown[];
  /** Times the table was asked to read its rows again (an answer without rows). */
  refreshed: number;
}

interface ReconciliationWorld {
  applied: unknown[];
  refreshed: number;
}

const send = (e: ReconciliationExpected, input: unknown): ReconciliationExpected => ({
  ...e,
  state: 'working',
  error: null,
  requests: [...e.requests, { actor: 'perform', input }],
});
const lastRequest = (e: ReconciliationExpected) =>
  e.requests[e.requests.length - 1]?.input as { kind: string } | undefined;

export const reconciliationModel: MachineModel<undefined, ReconciliationWorld, ReconciliationExpected> = {
  name: 'reconciliation',
  machine: reconciliationMachine,
  starts: [{ name: 'the statement lines table', input: undefined }],
  events: {
    'x on line 1': { type: 'select.toggle', id: L1 },
    'x on line 2': { type: 'select.toggle', id: L2 },
    'Shift+x over lines 1–3': { type: 'select.add', ids: [L1, L2, L3] },
    Esc: { type: 'select.clear' },
    'a on line 1': { type: 'act', action: { kind: 'accept', lineId: L1 } },
    'u on line 2': { type: 'act', action: { kind: 'unmatch', lineId: L2 } },
    'i on line 3, with a note': { type: 'act', action: { kind: 'ignore', lineId: L3, note: 'Comissão' } },
    '2 on line 1': {
      type: 'act',
      action: { kind: 'match', lineId: L1, counterparts: [{ kind: 'PAYOUT', id: 'po-2' }] },
    },
    'Shift+a': { type: 'bulkAccept', idempotencyKey: 'bulk-1' },
    'Shift+a over the score filter': { type: 'filterAccept', filter: FILTER },
    'Enter on the count': { type: 'filterAccept.confirm', idempotencyKey: 'filter-1' },
    'Esc on the count': { type: 'filterAccept.cancel' },
    'server: counted': { type: 'xstate.done.actor.count', output: COUNTED },
    'server: counted none': { type: 'xstate.done.actor.count', output: COUNTED_NONE },
    'server: count failed': { type: 'xstate.error.actor.count', error: { code: 'NETWORK_ERROR' } },
    'server: filter accepted': { type: 'xstate.done.actor.perform', output: FILTER_ACCEPTED },
    z: { type: 'undo' },
    'server: accepted': { type: 'xstate.done.actor.perform', output: ACCEPTED },
    'server: unmatched': { type: 'xstate.done.actor.perform', output: UNMATCHED },
    'server: bulk accepted': { type: 'xstate.done.actor.perform', output: BULK },
    'server: bulk undone': { type: 'xstate.done.actor.perform', output: BULK_UNDONE },
    'server: stale': { type: 'xstate.error.actor.perform', error: { code: 'STATEMENT_ACTION_STALE' } },
    'server: network': { type: 'xstate.error.actor.perform', error: { code: 'NETWORK_ERROR' } },
  },
  serializeState: (s) =>
    JSON.stringify({
      value: s.value,
      selected: Math.min(s.context.selected.length, 2),
      undo: Math.min(s.context.undo.length, 2),
      pending: s.context.pending?.kind ?? null,
    }),
  actors: ['perform', 'count'],
  world: () => {
    const world: ReconciliationWorld = { applied: [], refreshed: 0 };
    return {
      world,
      actions: {
        applyRows: (_: unknown, p: { lines: readonly unknown[] }) => world.applied.push(...p.lines),
        refreshRows: () => {
          world.refreshed++;
        },
      },
    };
  },
  initial: () => ({
    state: 'ready',
    requests: [],
    selected: [],
    undo: [],
    bulk: null,
    filterAccept: null,
    error: null,
    applied: [],
    refreshed: 0,
  }),
  transitions: {
    ready: {
      'select.toggle': (e, ev) => {
        const id = ev.id as string;
        return {
          ...e,
          selected: e.selected.includes(id) ? e.selected.filter((s) => s !== id) : [...e.selected, id],
        };
      },
      'select.add': (e, ev) => ({
        ...e,
        selected: [...e.selected, ...(ev.ids as string[]).filter((id) => !e.selected.includes(id))],
      }),
      'select.clear': (e) => ({ ...e, selected: [] }),
      act: (e, ev) => send(e, ev.action),
      bulkAccept: (e, ev) =>
        e.selected.length === 0
          ? e
          : {
              ...send(e, { kind: 'bulkAccept', lineIds: e.selected, idempotencyKey: ev.idempotencyKey }),
              bulk: null,
            },
      undo: (e) => (e.undo.length === 0 ? e : send(e, { kind: 'undo', actionId: e.undo[e.undo.length - 1] })),
      // A selection wins: Shift+a over the filter only when nothing is selected.
      filterAccept: (e, ev) =>
        e.selected.length > 0
          ? e
          : {
              ...e,
              state: 'counting',
              error: null,
              bulk: null,
              filterAccept: { filter: ev.filter as typeof FILTER, totals: null },
              requests: [...e.requests, { actor: 'count', input: ev.filter }],
            },
    },
    // Counting: the confirmation waits for the server's figures; keys meanwhile change nothing.
    counting: {
      'xstate.done.actor.count': (e, ev) => ({
        ...e,
        state: 'confirming',
        filterAccept: { filter: e.filterAccept!.filter, totals: ev.output as typeof COUNTED },
      }),
      'xstate.error.actor.count': (e, ev) => ({
        ...e,
        state: 'ready',
        filterAccept: null,
        error: (ev.error as { code: string }).code,
      }),
    },
    // The confirmation: Enter accepts what was counted (never when it counted none), Esc leaves.
    confirming: {
      'filterAccept.confirm': (e, ev) =>
        e.filterAccept!.totals!.count === 0
          ? e
          : send(e, {
              kind: 'filterAccept',
              filter: e.filterAccept!.filter,
              asOf: e.filterAccept!.totals!.asOf,
              idempotencyKey: ev.idempotencyKey,
            }),
      'filterAccept.cancel': (e) => ({ ...e, state: 'ready', filterAccept: null }),
    },
    // One thing at a time: keys pressed meanwhile (another action, Shift+a, z, x) send and change nothing.
    working: {
      'xstate.done.actor.perform': (e, ev) => {
        const out = ev.output as Answer;
        const sent = lastRequest(e);
        const next = out.lines
          ? { ...e, state: 'ready', applied: [...e.applied, ...out.lines] }
          : { ...e, state: 'ready', refreshed: e.refreshed + 1 };
        if (sent?.kind === 'undo') return { ...next, undo: e.undo.slice(0, -1) };
        const undo = [...e.undo, out.action.id];
        if (sent?.kind === 'bulkAccept' || sent?.kind === 'filterAccept')
          return {
            ...next,
            undo,
            selected: [],
            filterAccept: null,
            bulk: {
              accepted: out.accepted ?? 0,
              skipped: out.skipped ?? 0,
              skippedBecause: out.skippedBecause ?? null,
              remaining: out.remaining ?? 0,
            },
          };
        return { ...next, undo };
      },
      'xstate.error.actor.perform': (e, ev) => {
        const code = (ev.error as { code: string }).code;
        const stale = lastRequest(e)?.kind === 'undo' && code === 'STATEMENT_ACTION_STALE';
        return {
          ...e,
          state: 'ready',
          error: code,
          filterAccept: null,
          undo: stale ? e.undo.slice(0, -1) : e.undo,
        };
      },
    },
  },
  states: {
    ready: looks(false),
    working: looks(true),
    counting: looks(true),
    confirming: looks(false),
  },
  limit: 2000,
};

function looks(busy: boolean) {
  return ({ world, snapshot }: Observed<ReconciliationWorld>, e: ReconciliationExpected) => {
    const c = snapshot.context;
    expect({
      busy: snapshot.hasTag('busy'),
      selected: c.selected,
      undo: c.undo.map((a: { id: string }) => a.id),
      bulk: c.bulk,
      filterAccept: c.filterAccept,
      error: c.error,
    }).toEqual({
      busy,
      selected: e.selected,
      undo: e.undo,
      bulk: e.bulk,
      filterAccept: e.filterAccept,
      error: e.error,
    });
    expect(world.applied).toEqual(e.applied);
    expect(world.refreshed).toBe(e.refreshed);
  };
}

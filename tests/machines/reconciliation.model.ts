import { expect } from 'vitest';
import { reconciliationMachine } from '../../machines/reconciliation';
import type { Expected, MachineModel, Observed } from './model';

/**
 * The reconciliation table as issue 12 (item 5) describes it, written without reading the machine:
 * `x`/`Shift+x` select, `Esc` clears; `a`, `1`–`3`, `m`, `i`, `u`, `n` each send one line's action,
 * `Shift+a` accepts every selected suggestion at once, `z` undoes the last action done here. Nothing is
 * sent while an action is on its way (a bulk accept cannot interleave with an unmatch), and a row
 * changes only with the server's answer. A bulk accept empties the selection; a failure keeps it and
 * says why; an undo refused as stale leaves the stack (it can never be undone).
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
  skippedBecause?: { notSuggested: number; counterpartTaken: number; amountDiffers: number };
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
/** So does the undo of a bulk accept: how many lines it put back. */
const BULK_UNDONE = { action: { id: 'act-4', kind: 'UNDO' }, undone: 2 };

export interface ReconciliationExpected extends Expected {
  selected: string[];
  /** Action ids `z` would undo, last on top. */
  undo: string[];
  bulk: { accepted: number; skipped: number; skippedBecause: Answer['skippedBecause'] | null } | null;
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
  actors: ['perform'],
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
        if (sent?.kind === 'bulkAccept')
          return {
            ...next,
            undo,
            selected: [],
            bulk: {
              accepted: out.accepted ?? 0,
              skipped: out.skipped ?? 0,
              skippedBecause: out.skippedBecause ?? null,
            },
          };
        return { ...next, undo };
      },
      'xstate.error.actor.perform': (e, ev) => {
        const code = (ev.error as { code: string }).code;
        const stale = lastRequest(e)?.kind === 'undo' && code === 'STATEMENT_ACTION_STALE';
        return { ...e, state: 'ready', error: code, undo: stale ? e.undo.slice(0, -1) : e.undo };
      },
    },
  },
  states: {
    ready: looks(false),
    working: looks(true),
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
      error: c.error,
    }).toEqual({ busy, selected: e.selected, undo: e.undo, bulk: e.bulk, error: e.error });
    expect(world.applied).toEqual(e.applied);
    expect(world.refreshed).toBe(e.refreshed);
  };
}

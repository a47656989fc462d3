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
 * `Shift+i` ignores in bulk (decision 0161): with a selection, its open lines as the screen counts them;
 * with none, over a filter, the server counts the open lines the filter lists first. Either way the
 * confirmation shows the count and sum and takes a note, which the product's ignore requires: Enter without
 * one sends nothing; with one, one request ignores them all; the answer is counts (the table reads its
 * rows again) and `z` undoes it as one action. A count of none ignores nothing.
 * The cursor, as a review queue's (decision 0169): once the server has answered one line's decision —
 * `a`, a candidate taken (`1`–`3`, `m`), `i` — the active row goes to the next line below that still
 * needs one; an unmatch, a note, a bulk action, a refusal or a failure leave it where it is; `z` of one
 * line's action takes it back to that line, `z` of a bulk action leaves it.
 */

const L1 = '00000000-0000-4000-8000-0000000000a1';
const L2 = '00000000-0000-4000-8000-0000000000a2';
const L3 = '00000000-0000-4000-8000-0000000000a3';
const row = (id: string, status: string) => ({ id, status });
interface Answer {
  action: { id: string; kind: string };
  lines?: unknown[];
  accepted?: number;
  ignored?: number;
  skipped?: number;
  skippedBecause?: {
    notSuggested?: number;
    counterpartTaken?: number;
    amountDiffers?: number;
    changedMeanwhile?: number;
    notOpen?: number;
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
/** The filter `Shift+i` ignores over (the bank's fees), and the server's count of its open lines. */
const FEES = { text: 'COMISSAO', kind: 'fee' };
const FEES_COUNTED = { count: 12, sumCents: -4_560, asOf: '2026-11-28T02:00:00.000Z' };
/** The selection's open lines as the screen counts them (no instant: nothing to confirm against). */
const SELECTION_COUNTED = { count: 3, sumCents: -1_155 };
const NOTE = 'Comissões de março';
/** A bulk ignore answers counts: lines ignored, those left and why. */
const IGNORED: Answer = {
  action: { id: 'act-6', kind: 'BULK_IGNORE' },
  ignored: 11,
  skipped: 1,
  skippedBecause: { notOpen: 0, changedMeanwhile: 1 },
  remaining: 0,
};
/** So does the undo of a bulk accept: how many lines it put back. */
const BULK_UNDONE = { action: { id: 'act-4', kind: 'UNDO' }, undone: 2 };

export interface ReconciliationExpected extends Expected {
  selected: string[];
  /** Actions `z` would undo, last on top, with the line of one line's action (null for a bulk one). */
  undo: { id: string; line: string | null }[];
  /** The last bulk action's outcome: accepted or ignored, how many, what it left. */
  bulk: {
    kind: 'accept' | 'ignore';
    done: number;
    skipped: number;
    skippedBecause: Answer['skippedBecause'] | null;
    remaining: number;
  } | null;
  /** The bulk action being confirmed and the count the confirmation shows (null until counted). */
  confirm: {
    scope:
      | { kind: 'filterAccept'; filter: typeof FILTER }
      | { kind: 'filterIgnore'; filter: typeof FEES }
      | { kind: 'bulkIgnore'; lineIds: string[] };
    totals: { count: number; sumCents: number; asOf: string | null } | null;
  } | null;
  error: string | null;
  /** Rows handed to the table, answer by answer. */
  applied: unknown[];
  /** Times the table was asked to read its rows again (an answer without rows). */
  refreshed: number;
  /** Where the table was asked to put its active row, answer by answer. */
  moved: Move[];
}

/** The next line below `after` that still needs a decision, or the line `line` itself. */
type Move = { kind: 'nextOpen'; after: string } | { kind: 'line'; lineId: string };

interface ReconciliationWorld {
  applied: unknown[];
  refreshed: number;
  moved: Move[];
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
    'Shift+i over the fees filter': { type: 'filterIgnore', filter: FEES },
    'Shift+i over the selection': { type: 'ignoreSelected', totals: SELECTION_COUNTED },
    'Enter on the count': { type: 'bulkConfirm', idempotencyKey: 'filter-1' },
    'Enter on the count, with a note': {
      type: 'bulkConfirm',
      idempotencyKey: 'ignore-1',
      note: ` ${NOTE} `,
    },
    'Enter on the count, a blank note': { type: 'bulkConfirm', idempotencyKey: 'ignore-2', note: '   ' },
    'Esc on the count': { type: 'bulkCancel' },
    'server: fees counted': { type: 'xstate.done.actor.count', output: FEES_COUNTED },
    'server: ignored': { type: 'xstate.done.actor.perform', output: IGNORED },
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
    const world: ReconciliationWorld = { applied: [], refreshed: 0, moved: [] };
    return {
      world,
      actions: {
        applyRows: (_: unknown, p: { lines: readonly unknown[] }) => world.applied.push(...p.lines),
        refreshRows: () => {
          world.refreshed++;
        },
        moveCursor: (_: unknown, move: Move) => world.moved.push(move),
      },
    };
  },
  initial: () => ({
    state: 'ready',
    requests: [],
    selected: [],
    undo: [],
    bulk: null,
    confirm: null,
    error: null,
    applied: [],
    refreshed: 0,
    moved: [],
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
      undo: (e) =>
        e.undo.length === 0 ? e : send(e, { kind: 'undo', actionId: e.undo[e.undo.length - 1]!.id }),
      // A selection wins: Shift+a over the filter only when nothing is selected.
      filterAccept: (e, ev) =>
        e.selected.length > 0 ? e : counting(e, { kind: 'filterAccept', filter: ev.filter as typeof FILTER }),
      // Shift+i over the filter likewise; the server counts what it lists.
      filterIgnore: (e, ev) =>
        e.selected.length > 0 ? e : counting(e, { kind: 'filterIgnore', filter: ev.filter as typeof FEES }),
      // Shift+i over a selection: straight to the confirmation, with the screen's count; none selected, nothing.
      ignoreSelected: (e, ev) =>
        e.selected.length === 0
          ? e
          : {
              ...e,
              state: 'confirming',
              error: null,
              bulk: null,
              confirm: {
                scope: { kind: 'bulkIgnore', lineIds: e.selected },
                totals: { ...(ev.totals as typeof SELECTION_COUNTED), asOf: null },
              },
            },
    },
    // Counting: the confirmation waits for the server's figures; keys meanwhile change nothing.
    counting: {
      'xstate.done.actor.count': (e, ev) => ({
        ...e,
        state: 'confirming',
        confirm: { scope: e.confirm!.scope, totals: ev.output as typeof COUNTED },
      }),
      'xstate.error.actor.count': (e, ev) => ({
        ...e,
        state: 'ready',
        confirm: null,
        error: (ev.error as { code: string }).code,
      }),
    },
    // The confirmation: Enter does what was counted (never when it counted none; an ignore never without
    // its note, sent trimmed), Esc leaves.
    confirming: {
      bulkConfirm: (e, ev) => {
        const { scope, totals } = e.confirm!;
        const note = ((ev.note as string | undefined) ?? '').trim();
        if (totals!.count === 0) return e;
        const key = ev.idempotencyKey;
        if (scope.kind === 'filterAccept')
          return send(e, {
            kind: 'filterAccept',
            filter: scope.filter,
            asOf: totals!.asOf,
            idempotencyKey: key,
          });
        if (note === '') return e;
        if (scope.kind === 'filterIgnore')
          return send(e, {
            kind: 'filterIgnore',
            filter: scope.filter,
            asOf: totals!.asOf,
            note,
            idempotencyKey: key,
          });
        return send(e, { kind: 'bulkIgnore', lineIds: scope.lineIds, note, idempotencyKey: key });
      },
      bulkCancel: (e) => ({ ...e, state: 'ready', confirm: null }),
    },
    // One thing at a time: keys pressed meanwhile (another action, Shift+a, z, x) send and change nothing.
    working: {
      'xstate.done.actor.perform': (e, ev) => {
        const out = ev.output as Answer;
        const sent = lastRequest(e) as { kind: string; lineId?: string } | undefined;
        const next = out.lines
          ? { ...e, state: 'ready', applied: [...e.applied, ...out.lines] }
          : { ...e, state: 'ready', refreshed: e.refreshed + 1 };
        if (sent?.kind === 'undo') {
          // Back to the line whose action was undone; a bulk action's undo leaves the cursor.
          const line = e.undo[e.undo.length - 1]!.line;
          const moved: Move[] = line ? [...e.moved, { kind: 'line', lineId: line }] : e.moved;
          return { ...next, undo: e.undo.slice(0, -1), moved };
        }
        const undo = [...e.undo, { id: out.action.id, line: sent?.lineId ?? null }];
        // A decision on one line: on to the next one below that needs one. Not an unmatch or a note.
        if (sent?.kind === 'accept' || sent?.kind === 'match' || sent?.kind === 'ignore')
          return { ...next, undo, moved: [...e.moved, { kind: 'nextOpen', after: sent.lineId! }] };
        const ignore = sent?.kind === 'bulkIgnore' || sent?.kind === 'filterIgnore';
        if (ignore || sent?.kind === 'bulkAccept' || sent?.kind === 'filterAccept')
          return {
            ...next,
            undo,
            selected: [],
            confirm: null,
            bulk: {
              kind: ignore ? 'ignore' : 'accept',
              done: (ignore ? out.ignored : out.accepted) ?? 0,
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
          confirm: null,
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

/** Shift+a or Shift+i over a filter: the server is asked to count it. */
function counting(
  e: ReconciliationExpected,
  scope: NonNullable<ReconciliationExpected['confirm']>['scope'],
): ReconciliationExpected {
  const filter = 'filter' in scope ? scope.filter : null;
  return {
    ...e,
    state: 'counting',
    error: null,
    bulk: null,
    confirm: { scope, totals: null },
    requests: [...e.requests, { actor: 'count', input: { kind: scope.kind, filter } }],
  };
}

function looks(busy: boolean) {
  return ({ world, snapshot }: Observed<ReconciliationWorld>, e: ReconciliationExpected) => {
    const c = snapshot.context;
    expect({
      busy: snapshot.hasTag('busy'),
      selected: c.selected,
      undo: c.undo.map((a: { id: string; lineId?: string }) => ({ id: a.id, line: a.lineId ?? null })),
      bulk: c.bulk,
      confirm: c.confirm,
      error: c.error,
    }).toEqual({
      busy,
      selected: e.selected,
      undo: e.undo,
      bulk: e.bulk,
      confirm: e.confirm,
      error: e.error,
    });
    expect(world.applied).toEqual(e.applied);
    expect(world.refreshed).toBe(e.refreshed);
    expect(world.moved).toEqual(e.moved);
  };
}

import { assign, enqueueActions, fromPromise, setup } from 'xstate';
import type {
  StatementBulkSkipped,
  SuggestionFilter,
  SuggestionFilterTotals,
} from '../contract/reconciliation';
import { errorCodeOf } from './session';

/** A counterpart named to the server (a SEPA file or transfer, a payout, an invoice). */
export interface CounterpartRef {
  kind: string;
  id: string;
}

/** One action on one statement line, as the API takes it. */
export type LineAction =
  | { kind: 'accept'; lineId: string }
  | { kind: 'match'; lineId: string; counterparts: readonly CounterpartRef[]; note?: string }
  | { kind: 'ignore'; lineId: string; note: string }
  | { kind: 'unmatch'; lineId: string }
  | { kind: 'note'; lineId: string; note: string };

/**
 * What the `perform` actor is asked: one line's action, accepting the selection, accepting what a
 * "score ≥ x" filter selects as counted at `asOf` (decision 0147), or an undo.
 */
export type ReconciliationRequest =
  | LineAction
  | { kind: 'bulkAccept'; lineIds: readonly string[]; idempotencyKey: string }
  | { kind: 'filterAccept'; filter: SuggestionFilter; asOf: string; idempotencyKey: string }
  | { kind: 'undo'; actionId: string };

/**
 * The server's answer: the action it recorded (what `z` undoes) and the rows as they are now — or,
 * for a bulk accept, only its counts (decision 0108): then the table refetches what it shows.
 */
export interface ReconciliationOutcome {
  action: { id: string; kind: string };
  lines?: readonly unknown[];
  accepted?: number;
  skipped?: number;
  /** Why lines were skipped (answers stored before it existed have none). */
  skippedBecause?: BulkSkipped;
  /** A filtered accept: lines the filter still selects beyond the 10,000 it took. */
  remaining?: number;
}

/**
 * A bulk accept's skipped lines by reason, as the server answers them; they add up to `skipped`. A
 * filtered accept adds the lines changed between its count and the accept.
 */
export type BulkSkipped = StatementBulkSkipped & { changedMeanwhile?: number };

export interface ReconciliationContext {
  /** Selected line ids, in the order they were selected. */
  selected: readonly string[];
  /** What is on its way to the server; nothing else is sent until it answers. */
  pending: ReconciliationRequest | null;
  /** Actions done on this screen, last on top: `z` undoes the top one. */
  undo: readonly { id: string; kind: string }[];
  /** The last bulk accept's counts. */
  bulk: { accepted: number; skipped: number; skippedBecause: BulkSkipped | null; remaining: number } | null;
  /** The score filter `Shift+a` is accepting, and its count once the server gave it (the confirmation). */
  filterAccept: { filter: SuggestionFilter; totals: SuggestionFilterTotals | null } | null;
  /** Server code of the last refusal or failure, translated by the screen. */
  error: string | null;
}

export type ReconciliationEvent =
  | { type: 'select.toggle'; id: string }
  | { type: 'select.add'; ids: readonly string[] }
  | { type: 'select.clear' }
  | { type: 'act'; action: LineAction }
  | { type: 'bulkAccept'; idempotencyKey: string }
  /** `Shift+a` with nothing selected over a "score ≥ x" filter: count it, then confirm. */
  | { type: 'filterAccept'; filter: SuggestionFilter }
  /** Enter on the confirmation (its count and sum). */
  | { type: 'filterAccept.confirm'; idempotencyKey: string }
  | { type: 'filterAccept.cancel' }
  | { type: 'undo' };

/** An undo whose lines changed since: it can never be undone, so it leaves the stack. */
export const STATEMENT_ACTION_STALE = 'STATEMENT_ACTION_STALE';

/** The undo stack keeps this many actions. */
export const UNDO_DEPTH = 50;

const notProvided = (name: string) => () => {
  throw new Error(`reconciliation machine: actor "${name}" must be provided`);
};

function afterDone(
  context: ReconciliationContext,
  outcome: ReconciliationOutcome,
): Partial<ReconciliationContext> {
  const request = context.pending as ReconciliationRequest;
  if (request.kind === 'undo') return { undo: context.undo.slice(0, -1), pending: null, error: null };
  const undo = [...context.undo, { id: outcome.action.id, kind: outcome.action.kind }].slice(-UNDO_DEPTH);
  if (request.kind === 'bulkAccept' || request.kind === 'filterAccept')
    return {
      undo,
      pending: null,
      error: null,
      selected: [],
      filterAccept: null,
      bulk: {
        accepted: outcome.accepted ?? 0,
        skipped: outcome.skipped ?? 0,
        skippedBecause: outcome.skippedBecause ?? null,
        remaining: outcome.remaining ?? 0,
      },
    };
  return { undo, pending: null, error: null };
}

function afterError(context: ReconciliationContext, error: unknown): Partial<ReconciliationContext> {
  const code = errorCodeOf(error);
  const staleUndo = context.pending?.kind === 'undo' && code === STATEMENT_ACTION_STALE;
  return {
    pending: null,
    error: code,
    filterAccept: null,
    ...(staleUndo ? { undo: context.undo.slice(0, -1) } : {}),
  };
}

/**
 * The reconciliation table's selection and its one pending action (issue 12 item 5): a key press
 * becomes a request only while nothing else is on its way, so a bulk accept of 5,000 lines cannot
 * interleave with an unmatch, an undo, or a second bulk; every row changes only with the server's
 * answer (`applyRows`, or `refreshRows` when the answer holds counts only). `z` undoes the last action done here (a stale one is dropped, with the reason).
 */
export const reconciliationMachine = setup({
  types: {
    context: {} as ReconciliationContext,
    events: {} as ReconciliationEvent,
  },
  actors: {
    perform: fromPromise<ReconciliationOutcome, ReconciliationRequest>(notProvided('perform')),
    /** The confirmation's figures: how many suggestions the filter selects, their sum, when. */
    count: fromPromise<SuggestionFilterTotals, SuggestionFilter>(notProvided('count')),
  },
  actions: {
    // The console writes the rows into the table's cache here.
    applyRows: (_, _params: { lines: readonly unknown[] }) => {},
    // The console refetches the rows it shows (the server answered counts, not rows).
    refreshRows: () => {},
  },
  guards: {
    somethingSelected: ({ context }) => context.selected.length > 0,
    somethingToUndo: ({ context }) => context.undo.length > 0,
    nothingSelected: ({ context }) => context.selected.length === 0,
    somethingCounted: ({ context }) => (context.filterAccept?.totals?.count ?? 0) > 0,
  },
}).createMachine({
  id: 'reconciliation',
  initial: 'ready',
  context: { selected: [], pending: null, undo: [], bulk: null, filterAccept: null, error: null },
  states: {
    ready: {
      on: {
        'select.toggle': {
          actions: assign({
            selected: ({ context, event }) =>
              context.selected.includes(event.id)
                ? context.selected.filter((id) => id !== event.id)
                : [...context.selected, event.id],
          }),
        },
        'select.add': {
          actions: assign({
            selected: ({ context, event }) => [
              ...context.selected,
              ...event.ids.filter((id) => !context.selected.includes(id)),
            ],
          }),
        },
        'select.clear': { actions: assign({ selected: [] }) },
        act: {
          target: 'working',
          actions: assign({ pending: ({ event }) => event.action, error: null }),
        },
        bulkAccept: {
          guard: 'somethingSelected',
          target: 'working',
          actions: assign({
            pending: ({ context, event }) => ({
              kind: 'bulkAccept' as const,
              lineIds: context.selected,
              idempotencyKey: event.idempotencyKey,
            }),
            error: null,
            bulk: null,
          }),
        },
        filterAccept: {
          guard: 'nothingSelected',
          target: 'counting',
          actions: assign({
            filterAccept: ({ event }) => ({ filter: event.filter, totals: null }),
            error: null,
            bulk: null,
          }),
        },
        undo: {
          guard: 'somethingToUndo',
          target: 'working',
          actions: assign({
            pending: ({ context }) => ({
              kind: 'undo' as const,
              actionId: (context.undo[context.undo.length - 1] as { id: string }).id,
            }),
            error: null,
          }),
        },
      },
    },
    // Money moves: the filter's count and sum are shown before anything is accepted.
    counting: {
      tags: ['busy'],
      invoke: {
        id: 'count',
        src: 'count',
        input: ({ context }) => context.filterAccept!.filter,
        onDone: {
          target: 'confirming',
          actions: assign({
            filterAccept: ({ context, event }) => ({
              filter: context.filterAccept!.filter,
              totals: event.output,
            }),
          }),
        },
        onError: {
          target: 'ready',
          actions: assign(({ context, event }) => afterError(context, event.error)),
        },
      },
    },
    confirming: {
      tags: ['confirming'],
      on: {
        'filterAccept.confirm': {
          guard: 'somethingCounted',
          target: 'working',
          actions: assign({
            pending: ({ context, event }) => ({
              kind: 'filterAccept' as const,
              filter: context.filterAccept!.filter,
              asOf: context.filterAccept!.totals!.asOf,
              idempotencyKey: event.idempotencyKey,
            }),
          }),
        },
        'filterAccept.cancel': { target: 'ready', actions: assign({ filterAccept: null }) },
      },
    },
    working: {
      tags: ['busy'],
      invoke: {
        id: 'perform',
        src: 'perform',
        input: ({ context }) => context.pending as ReconciliationRequest,
        onDone: {
          target: 'ready',
          actions: [
            enqueueActions(({ event, enqueue }) => {
              const { lines } = event.output;
              if (lines) enqueue({ type: 'applyRows', params: { lines } });
              else enqueue('refreshRows');
            }),
            assign(({ context, event }) => afterDone(context, event.output)),
          ],
        },
        onError: {
          target: 'ready',
          actions: assign(({ context, event }) => afterError(context, event.error)),
        },
      },
    },
  },
});

import { assign, enqueueActions, fromPromise, setup } from 'xstate';
import type {
  IgnoreFilter,
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
 * "score ≥ x" filter selects as counted at `asOf` (decision 0147), ignoring the selection or every open
 * line a filter lists as counted at `asOf` (decision 0161), or an undo.
 */
export type ReconciliationRequest =
  | LineAction
  | { kind: 'bulkAccept'; lineIds: readonly string[]; idempotencyKey: string }
  | { kind: 'filterAccept'; filter: SuggestionFilter; asOf: string; idempotencyKey: string }
  | { kind: 'bulkIgnore'; lineIds: readonly string[]; note: string; idempotencyKey: string }
  | { kind: 'filterIgnore'; filter: IgnoreFilter; asOf: string; note: string; idempotencyKey: string }
  | { kind: 'undo'; actionId: string };

/**
 * A bulk action confirmed on its count and sum before it runs (money moves, or many lines close): the
 * suggestions a score filter selects, the open lines a filter lists, or the selection to ignore.
 */
export type BulkScope =
  | { kind: 'filterAccept'; filter: SuggestionFilter }
  | { kind: 'filterIgnore'; filter: IgnoreFilter }
  | { kind: 'bulkIgnore'; lineIds: readonly string[] };

/** What a filter's count answers: the server's, with its instant; a selection is counted by the screen. */
export type BulkTotals = Omit<SuggestionFilterTotals, 'asOf'> & { asOf: string | null };

/** The kinds of bulk action counted by the server (a filter's), and what the `count` actor is asked. */
export type CountedScope = Extract<BulkScope, { filter: unknown }>;

/**
 * Where the table's active row goes once the server has answered (decision 0169): after one line's
 * decision, to the next line below it that still needs one; after an undo of one line's action, to that line.
 */
export type CursorMove = { kind: 'nextOpen'; after: string } | { kind: 'line'; lineId: string };

/** One line's actions that decide it (a review queue's "done, next"); an unmatch or a note does not. */
const DECISIONS: ReadonlySet<ReconciliationRequest['kind']> = new Set(['accept', 'match', 'ignore']);

/** An action done here, as `z` undoes it: one line's names that line (the cursor goes back to it). */
export interface UndoableAction {
  id: string;
  kind: string;
  lineId?: string;
}

/** The kinds of request answered by counts, not rows (decisions 0108, 0161). */
const BULK_REQUESTS: ReadonlySet<ReconciliationRequest['kind']> = new Set([
  'bulkAccept',
  'filterAccept',
  'bulkIgnore',
  'filterIgnore',
]);
const IGNORES: ReadonlySet<ReconciliationRequest['kind']> = new Set(['bulkIgnore', 'filterIgnore']);

/**
 * The server's answer: the action it recorded (what `z` undoes) and the rows as they are now — or,
 * for a bulk accept, only its counts (decision 0108): then the table refetches what it shows.
 */
export interface ReconciliationOutcome {
  action: { id: string; kind: string };
  lines?: readonly unknown[];
  accepted?: number;
  /** A bulk ignore: lines ignored. */
  ignored?: number;
  skipped?: number;
  /** Why lines were skipped (answers stored before it existed have none). */
  skippedBecause?: BulkSkipped;
  /** A filtered accept: lines the filter still selects beyond the 10,000 it took. */
  remaining?: number;
}

/**
 * A bulk action's skipped lines by reason, as the server answers them; they add up to `skipped`. A
 * filtered action adds the lines changed between its count and the action; an ignore's lines no longer open.
 */
export type BulkSkipped = Partial<StatementBulkSkipped> & { changedMeanwhile?: number; notOpen?: number };

/** The last bulk action's outcome: how many lines it accepted or ignored, and what it left. */
export interface BulkOutcome {
  kind: 'accept' | 'ignore';
  done: number;
  skipped: number;
  skippedBecause: BulkSkipped | null;
  remaining: number;
}

export interface ReconciliationContext {
  /** Selected line ids, in the order they were selected. */
  selected: readonly string[];
  /** What is on its way to the server; nothing else is sent until it answers. */
  pending: ReconciliationRequest | null;
  /** Actions done on this screen, last on top: `z` undoes the top one. */
  undo: readonly UndoableAction[];
  /** The last bulk action's counts. */
  bulk: BulkOutcome | null;
  /** The bulk action being confirmed, and its count once given (the confirmation shows it). */
  confirm: { scope: BulkScope; totals: BulkTotals | null } | null;
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
  /** `Shift+i` with nothing selected over a filter: count its open lines, then confirm with a note. */
  | { type: 'filterIgnore'; filter: IgnoreFilter }
  /** `Shift+i` over the selection, with the count and sum of its open lines as the screen has them. */
  | { type: 'ignoreSelected'; totals: Omit<BulkTotals, 'asOf'> }
  /** Enter on the confirmation (its count and sum; an ignore's note, which it requires). */
  | { type: 'bulkConfirm'; idempotencyKey: string; note?: string }
  | { type: 'bulkCancel' }
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
  const done: UndoableAction = { id: outcome.action.id, kind: outcome.action.kind };
  if ('lineId' in request) done.lineId = request.lineId;
  const undo = [...context.undo, done].slice(-UNDO_DEPTH);
  if (BULK_REQUESTS.has(request.kind)) {
    const ignore = IGNORES.has(request.kind);
    return {
      undo,
      pending: null,
      error: null,
      selected: [],
      confirm: null,
      bulk: {
        kind: ignore ? 'ignore' : 'accept',
        done: (ignore ? outcome.ignored : outcome.accepted) ?? 0,
        skipped: outcome.skipped ?? 0,
        skippedBecause: outcome.skippedBecause ?? null,
        remaining: outcome.remaining ?? 0,
      },
    };
  }
  return { undo, pending: null, error: null };
}

/** Where the answered request sends the cursor: none after a bulk action, a note, an unmatch. */
function cursorAfter(context: ReconciliationContext): CursorMove | null {
  const request = context.pending as ReconciliationRequest;
  if (request.kind === 'undo') {
    const lineId = context.undo[context.undo.length - 1]?.lineId;
    return lineId ? { kind: 'line', lineId } : null;
  }
  return DECISIONS.has(request.kind) && 'lineId' in request
    ? { kind: 'nextOpen', after: request.lineId }
    : null;
}

/** What Enter on the confirmation sends: the scope as counted, with the note an ignore needs. */
function confirmedRequest(
  confirm: NonNullable<ReconciliationContext['confirm']>,
  idempotencyKey: string,
  note: string,
): ReconciliationRequest {
  const { scope, totals } = confirm;
  const asOf = totals?.asOf ?? '';
  switch (scope.kind) {
    case 'filterAccept':
      return { kind: 'filterAccept', filter: scope.filter, asOf, idempotencyKey };
    case 'filterIgnore':
      return { kind: 'filterIgnore', filter: scope.filter, asOf, note, idempotencyKey };
    case 'bulkIgnore':
      return { kind: 'bulkIgnore', lineIds: scope.lineIds, note, idempotencyKey };
  }
}

function afterError(context: ReconciliationContext, error: unknown): Partial<ReconciliationContext> {
  const code = errorCodeOf(error);
  const staleUndo = context.pending?.kind === 'undo' && code === STATEMENT_ACTION_STALE;
  return {
    pending: null,
    error: code,
    confirm: null,
    ...(staleUndo ? { undo: context.undo.slice(0, -1) } : {}),
  };
}

/**
 * The reconciliation table's selection and its one pending action (issue 12 item 5): a key press
 * becomes a request only while nothing else is on its way, so a bulk accept of 5,000 lines cannot
 * interleave with an unmatch, an undo, or a second bulk; every row changes only with the server's
 * answer (`applyRows`, or `refreshRows` when the answer holds counts only). `z` undoes the last action done here (a stale one is dropped, with the reason).
 * A line's decision answered moves the cursor on, an undo of one line's action back to it (`moveCursor`,
 * decision 0169); a refusal or a failure moves nothing.
 */
export const reconciliationMachine = setup({
  types: {
    context: {} as ReconciliationContext,
    events: {} as ReconciliationEvent,
  },
  actors: {
    perform: fromPromise<ReconciliationOutcome, ReconciliationRequest>(notProvided('perform')),
    /** The confirmation's figures: how many suggestions the filter selects, their sum, when. */
    count: fromPromise<SuggestionFilterTotals, CountedScope>(notProvided('count')),
  },
  actions: {
    // The console writes the rows into the table's cache here.
    applyRows: (_, _params: { lines: readonly unknown[] }) => {},
    // The console refetches the rows it shows (the server answered counts, not rows).
    refreshRows: () => {},
    // The console moves the table's active row (decision 0169).
    moveCursor: (_, _params: CursorMove) => {},
  },
  guards: {
    somethingSelected: ({ context }) => context.selected.length > 0,
    somethingToUndo: ({ context }) => context.undo.length > 0,
    nothingSelected: ({ context }) => context.selected.length === 0,
    /** An ignore is confirmed only with its note (the product's ignore requires one). */
    confirmable: ({ context, event }) =>
      (context.confirm?.totals?.count ?? 0) > 0 &&
      (context.confirm?.scope.kind === 'filterAccept' ||
        ((event as { note?: string }).note ?? '').trim().length > 0),
  },
}).createMachine({
  id: 'reconciliation',
  initial: 'ready',
  context: { selected: [], pending: null, undo: [], bulk: null, confirm: null, error: null },
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
            confirm: ({ event }) => ({ scope: { kind: 'filterAccept', filter: event.filter }, totals: null }),
            error: null,
            bulk: null,
          }),
        },
        filterIgnore: {
          guard: 'nothingSelected',
          target: 'counting',
          actions: assign({
            confirm: ({ event }) => ({ scope: { kind: 'filterIgnore', filter: event.filter }, totals: null }),
            error: null,
            bulk: null,
          }),
        },
        ignoreSelected: {
          guard: 'somethingSelected',
          target: 'confirming',
          actions: assign({
            confirm: ({ context, event }) => ({
              scope: { kind: 'bulkIgnore', lineIds: context.selected },
              totals: { ...event.totals, asOf: null },
            }),
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
    // Money moves, or many lines close: the filter's count and sum are shown before anything is done.
    counting: {
      tags: ['busy'],
      invoke: {
        id: 'count',
        src: 'count',
        input: ({ context }) => context.confirm!.scope as CountedScope,
        onDone: {
          target: 'confirming',
          actions: assign({
            confirm: ({ context, event }) => ({ scope: context.confirm!.scope, totals: event.output }),
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
        bulkConfirm: {
          guard: 'confirmable',
          target: 'working',
          actions: assign({
            pending: ({ context, event }) =>
              confirmedRequest(context.confirm!, event.idempotencyKey, event.note?.trim() ?? ''),
          }),
        },
        bulkCancel: { target: 'ready', actions: assign({ confirm: null }) },
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
            enqueueActions(({ context, event, enqueue }) => {
              const { lines } = event.output;
              if (lines) enqueue({ type: 'applyRows', params: { lines } });
              else enqueue('refreshRows');
              const move = cursorAfter(context);
              if (move) enqueue({ type: 'moveCursor', params: move });
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

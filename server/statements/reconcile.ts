import type { z } from 'zod';
import type {
  CounterpartKind,
  STATEMENT_ACTION_KINDS,
  StatementActionResult,
  StatementBulkAcceptResult,
  StatementBulkSkipped,
  StatementUndoResult,
  statementMatchBodySchema,
} from '../../contract/reconciliation';
import type { AuditAction } from '../../contract/statuses';
import type { Database, Queryable } from '../db/client';
import { type IdempotentRequest, idempotentMutation } from '../platform/idempotency';
import { type Actor, mutation } from '../platform/mutation';
import { refuse } from '../platform/refusal';
import { type CounterpartInfo, expectedSigned, loadCounterparts, roleFor } from './counterparts';
import { reviewEffects } from './effects';
import { type LearnedRule, learnFromMatches } from './learned-rules';
import {
  counterpartKey,
  type LineChange,
  type LineState,
  type LinkState,
  type LockedLine,
  lockLines,
  stateOf,
  writeLineStates,
} from './line-state';
import { lineRows } from './lines';
import { settleStatuses } from './resolve';
import { sayAgainAfter } from './say-again';

type ActionKind = (typeof STATEMENT_ACTION_KINDS)[number];
type MatchBody = z.output<typeof statementMatchBodySchema>;

/** What an action recorded of each line: its state before, and the action that had changed it last. */
interface UndoEntry {
  lineId: string;
  before: LineState;
  lastActionId: string | null;
}

export const AUDIT: Record<ActionKind, AuditAction> = {
  ACCEPT: 'statement.accept',
  MATCH: 'statement.match',
  IGNORE: 'statement.ignore',
  UNMATCH: 'statement.unmatch',
  NOTE: 'statement.note',
  BULK_ACCEPT: 'statement.bulk-accept',
  BULK_IGNORE: 'statement.bulk-ignore',
  UNDO: 'statement.undo',
};

/** The lines, locked, every one found and in a file still open. */
async function lockOpenLines(tx: Queryable, ids: readonly string[]): Promise<LockedLine[]> {
  const locked = await lockLines(tx, ids);
  return ids.map((id) => {
    const line = locked.get(id.toLowerCase());
    if (!line) throw refuse('STATEMENT_LINE_NOT_FOUND');
    if (line.reconciled) throw refuse('STATEMENT_FILE_RECONCILED');
    return line;
  });
}

export interface Done {
  actionId: string;
  lineIds: string[];
  /** Open lines of the decided amounts the matcher said again (decision 0179): answered, not the action's. */
  saidAgain: string[];
  /** The learned rules the action's matches taught (decision 0146), named in its audit row. */
  learned: LearnedRule[];
}

/** The actions after which the open lines of the decided amounts are said again (decision 0179): a note changes no link. */
const SAYS_AGAIN: ReadonlySet<ActionKind> = new Set(['MATCH', 'ACCEPT', 'IGNORE', 'UNMATCH', 'UNDO']);

/** The actions whose matches are the operator's own choice, and teach learned rules. */
const TEACHES: ReadonlySet<ActionKind> = new Set(['MATCH', 'ACCEPT', 'BULK_ACCEPT']);

/**
 * One reconciliation action in one transaction with its audit row: the action recorded (what each
 * line was before, for an undo), the lines written with their history, the consequences applied.
 * `plan` answers the changes; statuses of lines with links are settled from the amounts.
 */
export async function runAction(
  tx: Queryable,
  actor: Actor,
  kind: ActionKind,
  plan: (tx: Queryable) => Promise<LineChange[]>,
  options: {
    settle?: boolean;
    undoes?: string;
    check?: (changes: LineChange[]) => void;
    previousActions?: ReadonlyMap<string, string | null>;
  } = {},
): Promise<Done> {
  const { rows } = await tx.query<{ id: string }>(
    `INSERT INTO statement_actions (kind, actor_id, lines, undoes, created_at) VALUES ($1, $2, '[]', $3, $4) RETURNING id`,
    [kind, actor.userId, options.undoes ?? null, actor.at],
  );
  const actionId = rows[0]!.id;
  const planned = await plan(tx);
  const changes = options.settle === false ? planned : await settleStatuses(tx, planned);
  options.check?.(changes);
  const written = await writeLineStates(tx, actor.userId, actionId, actor.at, changes, {
    previousActions: options.previousActions,
  });
  await reviewEffects(tx, actor, written);
  const learned = TEACHES.has(kind) ? await learnFromMatches(tx, actionId, actor.at, changes) : [];
  // The open lines of the decided lines' amounts, said again (decision 0179): answered with the action's
  // rows so the table shows them, but not the action's own — its undo restores only what it decided.
  const resaid = SAYS_AGAIN.has(kind) ? await sayAgainAfter(tx, actor.at, changes) : [];
  await tx.query('UPDATE statement_actions SET lines = $2 WHERE id = $1', [
    actionId,
    JSON.stringify(
      changes.map((c) => ({ lineId: c.line.id, before: stateOf(c.line), lastActionId: c.line.lastActionId })),
    ),
  ]);
  return {
    actionId,
    lineIds: changes.map((c) => c.line.id),
    saidAgain: resaid.map((c) => c.line.id),
    learned,
  };
}

async function answer(db: Queryable, kind: ActionKind, done: Done): Promise<StatementActionResult> {
  return {
    action: { id: done.actionId, kind },
    lines: await lineRows(db, [...done.lineIds, ...done.saidAgain]),
  };
}

/** A single-line action through mutation(): the audit row names the line and its status before → after. */
async function lineAction(
  db: Database,
  actor: Actor,
  kind: ActionKind,
  lineId: string,
  plan: (tx: Queryable) => Promise<LineChange[]>,
  options: Parameters<typeof runAction>[4] = {},
): Promise<StatementActionResult> {
  const done = await mutation(
    db,
    actor,
    { action: AUDIT[kind], entityType: 'statement_line' },
    async (tx) => {
      const result = await runAction(tx, actor, kind, plan, options);
      const after = { actionId: result.actionId, lines: result.lineIds.length };
      return {
        result,
        entityId: lineId,
        after: result.learned.length > 0 ? { ...after, learnedRules: result.learned } : after,
      };
    },
  );
  return answer(db, kind, done);
}

/**
 * The links of a match: each line's amount spread over the counterparts in order (what is still
 * open of each), so one line may pay several counterparts and several lines one counterpart. Each
 * link holds what the line covers, so the rest of a payout stays open for its other part.
 */
function allocate(
  lines: readonly LockedLine[],
  counterparts: readonly { info: CounterpartInfo; open: number }[],
  method: 'MANUAL' | 'AMOUNT_COUNTERPARTY_DATE',
): LineChange[] {
  const links = new Map<string, LinkState[]>(lines.map((l) => [l.id, []]));
  const give = (line: LockedLine, info: CounterpartInfo, cents: number) => {
    const list = links.get(line.id)!;
    const role = roleFor(line, info.kind);
    const existing = list.find((l) => l.id === info.id);
    if (existing) existing.allocatedCents += cents;
    else
      list.push({ kind: info.kind, id: info.id, role, state: 'MATCHED', allocatedCents: cents, score: null });
  };
  let i = 0;
  let lineLeft = Math.abs(lines[0]!.amountCents);
  for (const { info, open } of counterparts) {
    let left = open;
    while (left > 0 && i < lines.length) {
      const take = Math.min(lineLeft, left);
      if (take > 0) give(lines[i]!, info, take);
      left -= take;
      lineLeft -= take;
      if (lineLeft === 0 && i < lines.length - 1) lineLeft = Math.abs(lines[++i]!.amountCents);
      else if (lineLeft === 0) break;
    }
    // Not reached by any line: linked whole to the last line (a DISCREPANCY then).
    if (left === open) give(lines[lines.length - 1]!, info, left);
  }
  return lines.map((line) => {
    const own = links.get(line.id)!;
    if (own.length === 0) throw refuse('STATEMENT_COUNTERPART_TAKEN');
    return {
      line,
      next: { status: 'MATCHED', matchMethod: method, notes: line.notes, differenceCents: null, links: own },
    };
  });
}

/** Lines and counterparts checked and linked: found, open, in the line's direction. */
async function planMatch(
  tx: Queryable,
  lines: LockedLine[],
  refs: readonly { kind: CounterpartKind; id: string }[],
  method: 'MANUAL' | 'AMOUNT_COUNTERPARTY_DATE',
): Promise<LineChange[]> {
  for (const line of lines)
    if (line.status === 'MATCHED' || line.status === 'DISCREPANCY')
      throw refuse('STATEMENT_LINE_ALREADY_MATCHED');
  const found = await loadCounterparts(tx, refs);
  const counterparts = refs.map((ref) => {
    const info = found.get(counterpartKey({ kind: ref.kind, id: ref.id.toLowerCase() }))!;
    const role = roleFor(lines[0]!, info.kind);
    for (const line of lines)
      if (Math.sign(line.amountCents) !== Math.sign(expectedSigned(info, roleFor(line, info.kind))))
        throw refuse('STATEMENT_MATCH_WRONG_DIRECTION');
    // A return does not use up the transfer; the unique index keeps it to one return.
    const open = role === 'RETURN' ? info.amountCents : info.amountCents - info.matchedCents;
    if (open <= 0) throw refuse('STATEMENT_COUNTERPART_TAKEN');
    return { info, open };
  });
  return allocate(lines, counterparts, method);
}

/** A DISCREPANCY of the lines acted on needs a note explaining it (issue 12, point 5). */
const needsNote = (lineIds: ReadonlySet<string>, note: string | undefined) => (changes: LineChange[]) => {
  if (note) return;
  if (changes.some((c) => lineIds.has(c.line.id) && c.next.status === 'DISCREPANCY'))
    throw refuse('STATEMENT_NOTE_REQUIRED');
};

export function matchLine(db: Database, actor: Actor, lineId: string, body: MatchBody) {
  const ids = [lineId, ...(body.lineIds ?? []).filter((id) => id.toLowerCase() !== lineId.toLowerCase())];
  return lineAction(
    db,
    actor,
    'MATCH',
    lineId,
    async (tx) => {
      const lines = await lockOpenLines(tx, [...new Set(ids.map((id) => id.toLowerCase()))]);
      const changes = await planMatch(tx, lines, body.counterparts, 'MANUAL');
      return body.note ? changes.map((c) => ({ ...c, next: { ...c.next, notes: body.note! } })) : changes;
    },
    { check: needsNote(new Set(ids.map((id) => id.toLowerCase())), body.note) },
  );
}

export function acceptSuggestion(db: Database, actor: Actor, lineId: string) {
  return lineAction(
    db,
    actor,
    'ACCEPT',
    lineId,
    async (tx) => {
      const [line] = await lockOpenLines(tx, [lineId]);
      const suggested = line!.links.find((l) => l.state === 'SUGGESTED');
      if (line!.status !== 'SUGGESTED' || !suggested) throw refuse('STATEMENT_NO_SUGGESTION');
      const changes = await planMatch(
        tx,
        [{ ...line!, status: 'UNMATCHED' }],
        [suggested],
        'AMOUNT_COUNTERPARTY_DATE',
      );
      // The match keeps the suggestion's score: unmatched, it is the same suggestion again (decision 0132),
      // selected by a "score ≥ x" filter as before (decision 0147).
      return changes.map((c) => ({
        line: line!,
        next: { ...c.next, links: c.next.links.map((link) => ({ ...link, score: suggested.score })) },
      }));
    },
    { check: needsNote(new Set([lineId.toLowerCase()]), undefined) },
  );
}

export function ignoreLine(db: Database, actor: Actor, lineId: string, note: string) {
  return lineAction(db, actor, 'IGNORE', lineId, async (tx) => {
    const [line] = await lockOpenLines(tx, [lineId]);
    if (line!.status === 'MATCHED' || line!.status === 'DISCREPANCY')
      throw refuse('STATEMENT_LINE_ALREADY_MATCHED');
    return [
      {
        line: line!,
        next: { status: 'IGNORED', matchMethod: null, notes: note, differenceCents: null, links: [] },
      },
    ];
  });
}

/**
 * Undone: its matches go, and with them what they caused. A match the matcher judged by amount,
 * counterparty and date (a suggestion accepted, or taken at import) goes back to being that suggestion,
 * so `a` takes it again; any other line goes back to UNMATCHED (decision 0132).
 */
export function unmatchLine(db: Database, actor: Actor, lineId: string) {
  return lineAction(db, actor, 'UNMATCH', lineId, async (tx) => {
    const [line] = await lockOpenLines(tx, [lineId]);
    if (line!.status === 'UNMATCHED') throw refuse('STATEMENT_LINE_NOT_MATCHED');
    const suggestion = suggestionKept(line!);
    return [
      {
        line: line!,
        next: {
          status: suggestion ? 'SUGGESTED' : 'UNMATCHED',
          matchMethod: null,
          notes: line!.notes,
          differenceCents: null,
          links: suggestion ? [suggestion] : [],
        },
      },
    ];
  });
}

/** The suggestion a matched line came from: its one link, when the matcher's similarity made it. */
function suggestionKept(line: LockedLine): LinkState | null {
  const [only, ...others] = line.links;
  if (line.status !== 'MATCHED' || line.matchMethod !== 'AMOUNT_COUNTERPARTY_DATE') return null;
  if (!only || others.length > 0) return null;
  return { ...only, state: 'SUGGESTED' };
}

export function noteLine(db: Database, actor: Actor, lineId: string, note: string) {
  return lineAction(
    db,
    actor,
    'NOTE',
    lineId,
    async (tx) => {
      const [line] = await lockOpenLines(tx, [lineId]);
      return [{ line: line!, next: { ...stateOf(line!), notes: note } }];
    },
    { settle: false },
  );
}

/** The bulk actions, whose answers — and their undos' — are counts, not rows (decisions 0108, 0161). */
const ANSWERED_BY_COUNTS: ReadonlySet<ActionKind> = new Set(['BULK_ACCEPT', 'BULK_IGNORE']);

/**
 * Undo (issue 12, `z`): every line of the action back to what it was before it — links, status,
 * note, and with them the consequences — recorded as an UNDO action. Refused when a line changed
 * since (its last action is another) or the action was undone already. The lines' last action
 * becomes the one before, so the action before can be undone next. The undo of a bulk accept answers
 * its count, not its rows (decision 0108).
 */
export async function undoAction(db: Database, actor: Actor, actionId: string): Promise<StatementUndoResult> {
  let undoneKind: ActionKind | null = null;
  const done = await mutation(db, actor, { action: AUDIT.UNDO, entityType: 'statement_line' }, async (tx) => {
    const { rows } = await tx.query<{
      kind: ActionKind;
      lines: UndoEntry[] | string;
      undone_by: string | null;
    }>('SELECT kind, lines, undone_by FROM statement_actions WHERE id = $1 FOR UPDATE', [actionId]);
    if (!rows[0]) throw refuse('STATEMENT_ACTION_NOT_FOUND');
    if (rows[0].undone_by) throw refuse('STATEMENT_ACTION_STALE');
    undoneKind = rows[0].kind;
    const entries: UndoEntry[] =
      typeof rows[0].lines === 'string' ? JSON.parse(rows[0].lines) : rows[0].lines;
    const before = new Map(entries.map((e) => [e.lineId, e.before]));
    const result = await runAction(
      tx,
      actor,
      'UNDO',
      async () => {
        const lines = await lockOpenLines(tx, [...before.keys()]);
        if (lines.some((line) => line.lastActionId !== actionId)) throw refuse('STATEMENT_ACTION_STALE');
        return lines.map((line) => ({ line, next: before.get(line.id)! }));
      },
      // Each line's last action is again the one before: undoing that is next (`z`, `z`, …).
      {
        settle: false,
        undoes: actionId,
        previousActions: new Map(entries.map((e) => [e.lineId, e.lastActionId])),
      },
    );
    await tx.query('UPDATE statement_actions SET undone_by = $2 WHERE id = $1', [actionId, result.actionId]);
    return {
      result,
      entityId: result.lineIds[0] ?? actionId,
      after: { undoes: actionId, actionId: result.actionId },
    };
  });
  if (undoneKind !== null && ANSWERED_BY_COUNTS.has(undoneKind))
    return { action: { id: done.actionId, kind: 'UNDO' }, undone: done.lineIds.length };
  return answer(db, 'UNDO', done);
}

/**
 * The accepts of a bulk accept, set-based over locked lines: every line still SUGGESTED (one suggested
 * link) whose counterpart nobody has matched and whose amount is exactly the line's becomes MATCHED; the
 * rest is counted by why it was left as it is.
 */
export async function planAccepts(
  tx: Queryable,
  locked: readonly LockedLine[],
): Promise<{ changes: LineChange[]; skippedBecause: StatementBulkSkipped }> {
  const candidates = locked.filter(
    (l) =>
      !l.reconciled && l.status === 'SUGGESTED' && l.links.length === 1 && l.links[0]!.state === 'SUGGESTED',
  );
  const counterparts = await loadCounterparts(
    tx,
    candidates.map((l) => l.links[0]!),
  );
  const taken = new Set<string>();
  const changes: LineChange[] = [];
  const skippedBecause: StatementBulkSkipped = {
    notSuggested: locked.length - candidates.length,
    counterpartTaken: 0,
    amountDiffers: 0,
  };
  for (const line of candidates) {
    const link = line.links[0]!;
    const info = counterparts.get(counterpartKey(link))!;
    const key = counterpartKey(link);
    if (taken.has(key) || info.matchedCents !== 0) {
      skippedBecause.counterpartTaken++;
      continue;
    }
    if (expectedSigned(info, link.role) !== line.amountCents) {
      skippedBecause.amountDiffers++;
      continue;
    }
    taken.add(key);
    changes.push({
      line,
      next: {
        status: 'MATCHED',
        matchMethod: 'AMOUNT_COUNTERPARTY_DATE',
        notes: line.notes,
        differenceCents: 0,
        links: [{ ...link, state: 'MATCHED', allocatedCents: info.amountCents }],
      },
    });
  }
  return { changes, skippedBecause };
}

/** A bulk accept's action: the planned accepts written; the counterparts were nobody's and the amounts equal. */
export async function runBulkAccept(
  tx: Queryable,
  actor: Actor,
  plan: (tx: Queryable) => Promise<{ changes: LineChange[]; skippedBecause: StatementBulkSkipped }>,
): Promise<Done & { skippedBecause: StatementBulkSkipped }> {
  let skippedBecause: StatementBulkSkipped = { notSuggested: 0, counterpartTaken: 0, amountDiffers: 0 };
  const done = await runAction(
    tx,
    actor,
    'BULK_ACCEPT',
    async () => {
      const planned = await plan(tx);
      skippedBecause = planned.skippedBecause;
      return planned.changes;
    },
    // Nothing else can change status: no settling from the amounts.
    { settle: false },
  );
  return { ...done, skippedBecause };
}

export const BULK_ACCEPT_AUDIT = { action: AUDIT.BULK_ACCEPT, entityType: 'statement_line' } as const;

/**
 * Bulk accept (`Shift+a`, ≤ 10,000 lines): `planAccepts` over the selection. One transaction,
 * set-based; with an Idempotency-Key a retry answers the first outcome. It answers counts, not rows
 * (decision 0108): reading 10,000 rows back cost ~1 s of the 2 s budget, and the console refetches the
 * page it shows.
 */
export async function bulkAccept(
  db: Database,
  actor: Actor,
  lineIds: readonly string[],
  idempotency: IdempotentRequest,
): Promise<StatementBulkAcceptResult> {
  const done = await idempotentMutation(db, actor, BULK_ACCEPT_AUDIT, idempotency, async (tx) => {
    const result = await runBulkAccept(tx, actor, async () => {
      const locked = await lockLines(tx, lineIds);
      const planned = await planAccepts(tx, [...locked.values()]);
      // Ids not found count as not suggested.
      planned.skippedBecause.notSuggested += lineIds.length - locked.size;
      return planned;
    });
    const accepted = result.lineIds.length;
    const skipped = lineIds.length - accepted;
    const skippedBecause = result.skippedBecause;
    return {
      result: { ...result, accepted, skipped, skippedBecause },
      entityId: result.lineIds[0] ?? lineIds[0]!,
      after: {
        actionId: result.actionId,
        accepted,
        skipped,
        skippedBecause,
        learnedRules: result.learned.length,
      },
    };
  });
  return {
    action: { id: done.actionId, kind: 'BULK_ACCEPT' },
    accepted: done.accepted,
    skipped: done.skipped,
    skippedBecause: done.skippedBecause,
  };
}

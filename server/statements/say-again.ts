import { signedExpected } from '../../domain/reconcile/features';
import { sayAgain } from '../../domain/reconcile/say-again';
import type { Queryable } from '../db/client';
import { learnedRules } from './learned-rules';
import { type LineChange, type LinkState, lockLines, storedScore, writeLineStates } from './line-state';
import {
  ENTRY_COLUMNS,
  type EntryRow,
  LineAsks,
  openItems,
  suggestedLink,
  toEntry,
  toItem,
} from './matching';

/** More decided lines than this (a bulk accept, its undo) are not followed by suggestions said again. */
export const SAY_AGAIN_AT_MOST = 100;

const OPEN = ['UNMATCHED', 'SUGGESTED'];

interface GroupRow extends EntryRow {
  open: boolean;
}

/** Two links alike as the table shows them: the same counterpart, role and state, the score to three decimals. */
const sameLink = (a: LinkState, b: LinkState) =>
  a.kind === b.kind &&
  a.id === b.id &&
  a.role === b.role &&
  a.state === b.state &&
  a.allocatedCents === b.allocatedCents &&
  storedScore(a.score ?? 0) === storedScore(b.score ?? 0);

/**
 * After a person's decision (decision 0179): the suggestions of the open lines of each decided line's
 * file and amount said again over the counterparts still open (`sayAgain`), so a line whose rival the
 * decision took, or whose rival line it settled, is sure now and the score filter's `Shift+a` takes it.
 * A line the decision left open (an undo, an unmatch) weighs with them as it is, not rewritten. The lines another
 * transaction holds are skipped (never waited for: that one may be waiting for these), yet still weigh
 * as rivals. Answers the changes, written by the matcher (no actor; each line's last action kept, so
 * they are not the action's: its undo restores what it decided, then says these again in turn).
 */
export async function sayAgainAfter(
  tx: Queryable,
  at: Date,
  decided: readonly LineChange[],
): Promise<LineChange[]> {
  if (decided.length === 0 || decided.length > SAY_AGAIN_AT_MOST) return [];
  const decidedIds = new Set(decided.map((c) => c.line.id));
  const changes: LineChange[] = [];
  for (const fileId of new Set(decided.map((c) => c.line.statementFileId))) {
    const amounts = new Set(
      decided.filter((c) => c.line.statementFileId === fileId).map((c) => c.line.amountCents),
    );
    changes.push(...(await sayAgainInFile(tx, fileId, [...amounts], decidedIds)));
  }
  if (changes.length > 0) await writeLineStates(tx, null, null, at, changes);
  return changes;
}

async function sayAgainInFile(
  tx: Queryable,
  fileId: string,
  amounts: readonly number[],
  decidedIds: ReadonlySet<string>,
): Promise<LineChange[]> {
  const { rows: files } = await tx.query<{
    imported_at: Date;
    kept_to_rail: boolean | null;
    reconciled: boolean;
  }>(
    'SELECT imported_at, kept_to_rail, reconciled_at IS NOT NULL AS reconciled FROM statement_files WHERE id = $1',
    [fileId],
  );
  const file = files[0];
  if (!file || file.reconciled) return [];
  const { rows } = await tx.query<GroupRow>(
    `SELECT ${ENTRY_COLUMNS}, status = ANY($3::text[]) AS open
       FROM statement_lines WHERE statement_file_id = $1 AND bank_amount_cents = ANY($2::bigint[])`,
    [fileId, amounts, OPEN],
  );
  // A return's suggestion is a transfer of the other sign, not among these amounts' counterparts.
  const open = rows.filter((r) => r.open && r.kind !== 'return');
  if (open.length === 0) return [];
  const { rows: free } = await tx.query<{ id: string }>(
    `SELECT id FROM statement_lines WHERE id = ANY($1::uuid[]) AND status = ANY($2::text[])
      ORDER BY id FOR UPDATE SKIP LOCKED`,
    [open.map((r) => r.id), OPEN],
  );
  const locked = await lockLines(
    tx,
    free.map((r) => r.id),
  );
  const days = open.map((r) => r.bank_date).sort();
  const asked = new LineAsks();
  asked.add(open.length, {
    firstDate: days[0]!,
    lastDate: days.at(-1)!,
    endToEndIds: open.flatMap((r) => (r.end_to_end_id ? [r.end_to_end_id] : [])),
    returnedEndToEndIds: [],
    batchIds: open.flatMap((r) => (r.batch_id ? [r.batch_id] : [])),
    unnamedReturns: [],
  });
  const itemRows = await openItems(tx, asked, [...new Set(amounts.map(Math.abs))]);
  const items = itemRows.map(toItem).filter((item) => amounts.includes(signedExpected(item)));
  const byId = new Map(itemRows.map((row) => [`${row.kind}:${row.id}`, row]));
  const said = sayAgain(open.map(toEntry), rows.filter((r) => !r.open).map(toEntry), items, {
    learned: await learnedRules(tx, null, file.imported_at),
    // Null: too few lines told, or imported before the column (decision 0184).
    railKept: file.kept_to_rail,
  });
  const next = new Map<string, LinkState>();
  const rowOf = new Map(open.map((r) => [r.id, r]));
  for (const s of said) {
    const lineId = s.entryIds[0]!;
    const link = suggestedLink(rowOf.get(lineId)!, byId.get(s.itemIds[0]!)!, s.confidence);
    if (link) next.set(lineId, link);
  }
  const changes: LineChange[] = [];
  for (const line of locked.values()) {
    // Only a line the matcher suggested, or left without a suggestion: a link of a person's stays, and so
    // does what the action just made of its own lines (a match picked by hand and unmatched is unmatched,
    // decision 0132; an undone line is as it was).
    if (
      decidedIds.has(line.id) ||
      !OPEN.includes(line.status) ||
      line.links.some((l) => l.state !== 'SUGGESTED')
    )
      continue;
    const link = next.get(line.id);
    const before = line.links[0];
    if (link ? line.links.length === 1 && sameLink(before!, link) : line.links.length === 0) continue;
    changes.push({
      line,
      next: {
        status: link ? 'SUGGESTED' : 'UNMATCHED',
        matchMethod: link ? 'AMOUNT_COUNTERPARTY_DATE' : null,
        notes: line.notes,
        differenceCents: null,
        links: link ? [link] : [],
      },
    });
  }
  return changes;
}

import type { Queryable } from '../db/client';
import type { KnownEntry, PlannedLines } from './import-plan';
import { columnLiterals, LINE_COLUMNS, type LineRows } from './line-rows';
import { LineAsks } from './matching';
import { ENTRIES_PER_CHUNK, type HeldLines } from './statement-reader';

/**
 * A statement's new lines written as they are read (issue 27 item 11, decision 0144): for each chunk of
 * the file's entries the import says which lines are new and where each one's id falls, the reader
 * builds that chunk's rows where it holds the entries (its worker thread for a big file, line-rows.ts),
 * and the rows are inserted UNMATCHED at once. The API thread keeps only what the counterparts query
 * will ask (`LineAsks`); the matcher decides after the last chunk, over the lines it can reach
 * (matching.ts, `matchInsertedLines`).
 *
 * Ids still increase by booking date, then file order (decisions 0112, 0118): each new line's place in
 * that order is counted from the statements' line facts before the first chunk, so a line gets the id
 * it would have had in a sorted list while the lines are inserted in the order they come.
 */

export interface StreamedLines {
  /** Lines inserted. */
  inserted: number;
  asked: LineAsks;
}

/**
 * Inserts the new lines of the file, skipping those `known` names. Each chunk's rows are asked for while
 * the one before is being inserted (decision 0109), so at most two are alive. A failed INSERT fails the
 * import (the transaction is aborted) and is the error thrown.
 */
export async function insertStreamedLines(
  tx: Queryable,
  file: { statementFileId: string; at: Date },
  statements: readonly PlannedLines[],
  known: readonly ReadonlyMap<number, KnownEntry>[],
  lines: HeldLines,
  onInserted: (inserted: number) => void,
): Promise<StreamedLines> {
  const counterOf = idCounters(statements, known);
  const entryCount = statements.reduce((total, s) => total + s.entryCount, 0);
  const now = Date.now();
  const asked = new LineAsks();
  let inserted = 0;
  let previous: Promise<void> = Promise.resolve();
  let n = 0; // the statement of the chunk's next entry
  for (let start = 0; start < entryCount; start += ENTRIES_PER_CHUNK) {
    const counters = new Int32Array(Math.min(ENTRIES_PER_CHUNK, entryCount - start));
    for (let k = 0; k < counters.length; k++) {
      const at = start + k;
      while (at >= statements[n]!.firstEntry + statements[n]!.entryCount) n++;
      const index = at - statements[n]!.firstEntry;
      counters[k] = known[n]!.has(index) ? -1 : counterOf(n, index);
    }
    const rows = await lines.next({ counters, now });
    if (rows === null) throw new Error(`the reader ended at entry ${start} of ${entryCount}`);
    asked.add(rows.count, rows.asks);
    const batch = insertRows(tx, file, rows).then(() => {
      inserted += rows.count;
      onInserted(inserted);
    });
    // Awaited below (or as the next one's previous); until then a rejection must not count as unhandled.
    batch.catch(() => undefined);
    await previous;
    previous = batch;
  }
  await previous;
  return { inserted, asked };
}

/** How many lines of the statements are not known: the lines the import inserts. */
export const freshLineCount = (
  statements: readonly PlannedLines[],
  known: readonly ReadonlyMap<number, KnownEntry>[],
): number => statements.reduce((total, s, n) => total + s.entryCount - known[n]!.size, 0);

/**
 * Each new line's place among all new lines ordered by booking day, then file order: the counter its id
 * is made from. Counted per day first (a statement has a few hundred days), then handed out in file
 * order, which is the order inside a day.
 */
function idCounters(
  statements: readonly PlannedLines[],
  known: readonly ReadonlyMap<number, KnownEntry>[],
): (statement: number, index: number) => number {
  const perDay = new Map<string, number>();
  for (const [n, s] of statements.entries()) {
    const counts = new Int32Array(s.lines.days.length);
    for (let index = 0; index < s.entryCount; index++)
      if (!known[n]!.has(index)) counts[s.lines.dayIndexes[index]!]!++;
    for (const [d, day] of s.lines.days.entries()) perDay.set(day, (perDay.get(day) ?? 0) + counts[d]!);
  }
  const next = new Map<string, number>();
  let first = 0;
  for (const day of [...perDay.keys()].sort()) {
    next.set(day, first);
    first += perDay.get(day)!;
  }
  // Per statement, each of its days' next counter, by the day's index in its own list.
  const nextOf = statements.map((s) => Int32Array.from(s.lines.days, (day) => next.get(day)!));
  return (statement, index) => {
    const ofDay = nextOf[statement]!;
    const d = statements[statement]!.lines.dayIndexes[index]!;
    return ofDay[d]!++;
  };
}

const COLUMN_NAMES = LINE_COLUMNS.map(([name]) => name).join(', ');
const CASTS = LINE_COLUMNS.map(([, type], i) => `c${i}::${type}`).join(', ');
// Each column's literal arrives as UTF-8 bytes (line-rows.ts): decoded and cast here, by PostgreSQL.
const ARRAYS = LINE_COLUMNS.map((_, i) => `convert_from($${i + 3}::bytea, 'UTF8')::text[]`).join(', ');
const ALIASES = LINE_COLUMNS.map((_, i) => `c${i}`).join(', ');

/**
 * One INSERT of a chunk's new lines, UNMATCHED (the column's default; the matcher's decisions are written
 * over them after the last chunk). No conflict is expected: the lines known before were left out under
 * the import lock, so a duplicate key here is a fault and fails the import. A line's import is not a row
 * of its history: the file says who imported it and when (decision 0097).
 */
async function insertRows(
  tx: Queryable,
  file: { statementFileId: string; at: Date },
  rows: LineRows,
): Promise<void> {
  if (rows.count === 0) return;
  await tx.query(
    `INSERT INTO statement_lines (statement_file_id, imported_at, updated_at, ${COLUMN_NAMES})
     SELECT $1::uuid, $2::timestamptz, $2::timestamptz, ${CASTS} FROM unnest(${ARRAYS}) AS t(${ALIASES})`,
    [file.statementFileId, file.at, ...columnLiterals(rows)],
  );
}

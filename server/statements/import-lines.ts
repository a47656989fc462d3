import type { StatementEntry } from '../../domain/statements/types';
import type { Queryable } from '../db/client';
import { nextTurn } from '../platform/next-turn';
import { orderedIdsAt } from '../platform/ordered-ids';
import type { KnownEntry, PlannedStatement } from './import-plan';
import { LineAsks, type NewStatementLine } from './matching';
import type { EntryChunks } from './statement-reader';

/**
 * A statement's new lines written as they are read (issue 27 item 11, decision 0144): the file's entries
 * come a chunk at a time (statement-reader.ts), each chunk's lines not known before are inserted
 * UNMATCHED at once, and only what the counterparts query asks of them (`LineAsks`) is kept. The entries,
 * line objects and INSERT arrays of 600,000 lines are never alive together; the matcher decides after
 * the last chunk, over the lines it can reach (matching.ts, `matchInsertedLines`).
 *
 * Ids still increase by booking date, then file order (decisions 0112, 0118): each fresh line's place in
 * that order is counted from the statements' line facts before the first chunk arrives, so a line gets
 * the id it would have had in a sorted list while the lines are inserted in the order they come.
 */

export interface StreamedLines {
  /** Lines inserted. */
  inserted: number;
  asked: LineAsks;
}

/**
 * Inserts the fresh lines of `entries` (the file's, in order), skipping those `known` names. Each chunk
 * is built while the one before is being inserted (decision 0109), so at most two are alive. A failed
 * INSERT fails the import (the transaction is aborted) and is the error thrown.
 */
export async function insertStreamedLines(
  tx: Queryable,
  file: { statementFileId: string; at: Date },
  statements: readonly PlannedStatement[],
  known: readonly ReadonlyMap<number, KnownEntry>[],
  entries: EntryChunks,
  onInserted: (inserted: number) => void,
): Promise<StreamedLines> {
  const counterOf = idCounters(statements, known);
  const now = Date.now();
  const asked = new LineAsks();
  let inserted = 0;
  let previous: Promise<void> = Promise.resolve();
  let at = 0; // the next entry's index in the file
  let n = 0; // the statement the next entry belongs to
  for (let chunk = await entries.next(); chunk !== null; chunk = await entries.next()) {
    const fresh: { counter: number; entry: StatementEntry; key: string; statement: number }[] = [];
    for (const [k, entry] of chunk.entries.entries()) {
      while (n < statements.length && at >= statements[n]!.firstEntry + statements[n]!.entryCount) n++;
      const statement = statements[n];
      if (!statement || at < statement.firstEntry) throw new Error(`entry ${at} belongs to no statement`);
      const index = at++ - statement.firstEntry;
      if (!known[n]!.has(index))
        fresh.push({ counter: counterOf(n, index), entry, key: chunk.keys[k]!, statement: statement.number });
    }
    // In id order inside the INSERT: the primary key's pages are written in the order it keeps.
    fresh.sort((a, b) => a.counter - b.counter);
    const ids = orderedIdsAt(
      fresh.map((line) => line.counter),
      now,
    );
    const lines = fresh.map((line, k) => newLine(ids[k]!, line.entry, line.key, line.statement));
    for (const line of lines) asked.add(line);
    const batch = insertLines(tx, file, lines).then(() => {
      inserted += lines.length;
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
  statements: readonly PlannedStatement[],
  known: readonly ReadonlyMap<number, KnownEntry>[],
): number => statements.reduce((total, s, n) => total + s.entryCount - known[n]!.size, 0);

/**
 * Each fresh line's place among all fresh lines ordered by booking day, then file order: the counter its
 * id is made from. Counted per day first (a statement has a few hundred days), then handed out in file
 * order, which is the order inside a day.
 */
function idCounters(
  statements: readonly PlannedStatement[],
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

/** A parsed entry as the line it will be, with its id. */
const newLine = (
  id: string,
  entry: StatementEntry,
  key: string,
  statementNumber: number,
): NewStatementLine & { dedup_key: string; currency: string; statement_number: number } => ({
  id,
  statement_number: statementNumber,
  dedup_key: key,
  line_number: entry.lineNumber,
  bank_amount_cents: entry.amountCents,
  bank_date: entry.bookingDate,
  value_date: entry.valueDate,
  currency: entry.currency,
  description: entry.description,
  counterparty_name: entry.counterpartyName,
  counterparty_iban: entry.counterpartyIban,
  end_to_end_id: entry.endToEndId,
  batch_id: entry.batchId,
  bank_reference: entry.bankReference,
  kind: entry.kind,
  return_reason: entry.returnReason,
});

type InsertedLine = ReturnType<typeof newLine>;
type LineCell = string | number | null;

const LINE_COLUMNS: [column: string, type: string, cell: (line: InsertedLine) => LineCell][] = [
  ['id', 'uuid', (l) => l.id],
  ['statement_number', 'smallint', (l) => l.statement_number],
  ['line_number', 'int', (l) => l.line_number],
  ['dedup_key', 'text', (l) => l.dedup_key],
  ['bank_amount_cents', 'bigint', (l) => l.bank_amount_cents],
  ['bank_date', 'date', (l) => l.bank_date],
  ['value_date', 'date', (l) => l.value_date],
  ['currency', 'text', (l) => l.currency],
  ['description', 'text', (l) => l.description],
  ['counterparty_name', 'text', (l) => l.counterparty_name],
  ['counterparty_iban', 'text', (l) => l.counterparty_iban],
  ['end_to_end_id', 'text', (l) => l.end_to_end_id],
  ['batch_id', 'text', (l) => l.batch_id],
  ['bank_reference', 'text', (l) => l.bank_reference],
  ['kind', 'text', (l) => l.kind],
  ['return_reason', 'text', (l) => l.return_reason],
];

/** Columns of a batch's INSERT built between two turns of the event loop. */
const COLUMNS_PER_TURN = 5;

/**
 * A `text[]` literal written here rather than by the driver when it sends the query: built before the
 * previous batch has finished, it is CPU the pipelined insert overlaps with PostgreSQL's (decision 0109).
 */
const nullableTextArray = (cells: readonly LineCell[]): string =>
  `{${cells.map((cell) => (cell === null ? 'NULL' : `"${String(cell).replace(/["\\]/g, '\\$&')}"`)).join(',')}}`;

/**
 * One INSERT of a chunk's fresh lines, UNMATCHED (the column's default; the matcher's decisions are
 * written over them after the last chunk). Every value as text, cast in SQL, as the seed's bulk insert
 * does, so both drivers send the same array literals. No conflict is expected: the lines known before
 * were left out under the import lock, so a duplicate key here is a fault and fails the import. A line's
 * import is not a row of its history: the file says who imported it and when (decision 0097).
 */
async function insertLines(
  tx: Queryable,
  file: { statementFileId: string; at: Date },
  lines: readonly InsertedLine[],
): Promise<void> {
  if (lines.length === 0) return;
  const columns: string[] = [];
  for (const [, , cell] of LINE_COLUMNS) {
    // A turn of the event loop between columns: a batch's arrays are ~100 ms of CPU on a busy core.
    if (columns.length % COLUMNS_PER_TURN === 0) await nextTurn();
    columns.push(nullableTextArray(lines.map(cell)));
  }
  const names = LINE_COLUMNS.map(([name]) => name).join(', ');
  const casts = LINE_COLUMNS.map(([, type], i) => `c${i}::${type}`).join(', ');
  const arrays = LINE_COLUMNS.map((_, i) => `$${i + 3}::text[]`).join(', ');
  const aliases = LINE_COLUMNS.map((_, i) => `c${i}`).join(', ');
  await tx.query(
    `INSERT INTO statement_lines (statement_file_id, imported_at, updated_at, ${names})
     SELECT $1::uuid, $2::timestamptz, $2::timestamptz, ${casts} FROM unnest(${arrays}) AS t(${aliases})`,
    [file.statementFileId, file.at, ...columns],
  );
}

import type { StatementEntry } from '../../domain/statements/types';
import { orderedIdsAt } from '../platform/ordered-ids';

/**
 * A chunk of a statement's entries as the rows the import inserts (decision 0144): built where the
 * entries are held — the reader's worker thread for a big file — so the API thread receives one INSERT's
 * column literals and what the counterparts query will ask of these lines, never the entries themselves.
 * Pure: no database, so the worker loads nothing else of the server.
 */

/** What the import decided for the next chunk of the file's entries. */
export interface ChunkPlan {
  /** Per entry of the chunk, its id's counter (decisions 0112, 0118: by booking day, then file order); -1: known, left out. */
  counters: Int32Array;
  /** The ids' time, the same for the whole import. */
  now: number;
}

/**
 * One INSERT's worth of new lines, in id order: each column of `LINE_COLUMNS` as one `text[]` literal in
 * UTF-8, written one after the other into `literals` — a buffer the worker hands over without a copy and
 * the INSERT sends as it is (`bytea`, decoded by PostgreSQL). No thread builds a column as a string:
 * those strings (hundreds of KiB each, in V8's large-object space) lived until a major collection, in
 * both threads, and were most of what the import grew by (decision 0150).
 */
export interface LineRows {
  count: number;
  literals: Uint8Array;
  /** Where each column's literal ends in `literals`, in `LINE_COLUMNS`' order. */
  ends: number[];
  asks: ChunkAsks;
}

/** Each column's literal of a chunk's rows, as views of its one buffer. */
export const columnLiterals = (rows: LineRows): Uint8Array[] =>
  rows.ends.map((end, i) => rows.literals.subarray(i === 0 ? 0 : rows.ends[i - 1], end));

/** What lines ask the counterparts for (matching.ts `LineAsks`), of one chunk, as plain data. */
export interface ChunkAsks {
  firstDate: string | null;
  lastDate: string | null;
  endToEndIds: string[];
  returnedEndToEndIds: string[];
  batchIds: string[];
  unnamedReturns: { amountCents: number; bankDate: string }[];
}

type LineCell = string | number | null;

/**
 * The new line a cell is read from: one cursor moved row by row, whose id, key and statement are made
 * only when a cell asks. Nothing per line outlives its cell, so a chunk's build leaves no garbage old
 * enough to be promoted out of the worker's young generation (decision 0150).
 */
interface NewLine {
  entry: StatementEntry;
  id(): string;
  key(): string;
  statementNumber(): number;
}

/** The columns written (the rest take their defaults: UNMATCHED, no decision) and each one's cell. */
export const LINE_COLUMNS: [column: string, type: string, cell: (line: NewLine) => LineCell][] = [
  ['id', 'uuid', (l) => l.id()],
  ['statement_number', 'smallint', (l) => l.statementNumber()],
  ['line_number', 'int', (l) => l.entry.lineNumber],
  ['dedup_key', 'text', (l) => l.key()],
  ['bank_amount_cents', 'bigint', (l) => l.entry.amountCents],
  ['bank_date', 'date', (l) => l.entry.bookingDate],
  ['value_date', 'date', (l) => l.entry.valueDate],
  ['currency', 'text', (l) => l.entry.currency],
  ['description', 'text', (l) => l.entry.description],
  ['counterparty_name', 'text', (l) => l.entry.counterpartyName],
  ['counterparty_iban', 'text', (l) => l.entry.counterpartyIban],
  ['end_to_end_id', 'text', (l) => l.entry.endToEndId],
  ['batch_id', 'text', (l) => l.entry.batchId],
  ['bank_reference', 'text', (l) => l.entry.bankReference],
  ['kind', 'text', (l) => l.entry.kind],
  ['return_reason', 'text', (l) => l.entry.returnReason],
];

/** The most UTF-8 bytes one UTF-16 code unit can take. */
const MAX_BYTES_PER_UNIT = 3;

/**
 * Where every chunk of this thread writes its literals before they are copied out at their exact size:
 * one buffer, doubled when a chunk needs more and kept, so a chunk leaves no outgrown buffers behind.
 * A thread builds one chunk at a time (synchronously), so they never share it.
 */
let scratch = Buffer.allocUnsafeSlow(256 * 1024);

/**
 * `text[]` literals written here rather than by the driver: every value as text, cast in SQL, as the
 * seed's bulk insert does, so both drivers send the same literals (decision 0109). Written cell by cell
 * into bytes: the only strings made are a cell's own (decision 0150).
 */
class LiteralsWriter {
  private length = 0;
  readonly ends: number[] = [];

  /** One column's literal: `count` cells, the n-th `cellAt(n)`. */
  column(count: number, cellAt: (n: number) => LineCell): void {
    this.text('{');
    for (let n = 0; n < count; n++) {
      if (n > 0) this.text(',');
      const value = cellAt(n);
      if (value === null) this.text('NULL');
      else this.text(`"${String(value).replace(/["\\]/g, '\\$&')}"`);
    }
    this.text('}');
    this.ends.push(this.length);
  }

  /** The literals written, copied into a buffer of their own (not pooled: it is handed over whole). */
  written(): Uint8Array {
    return new Uint8Array(scratch.subarray(0, this.length));
  }

  private text(text: string): void {
    const needed = this.length + text.length * MAX_BYTES_PER_UNIT;
    if (needed > scratch.byteLength) {
      const larger = Buffer.allocUnsafeSlow(Math.max(needed, scratch.byteLength * 2));
      scratch.copy(larger, 0, 0, this.length);
      scratch = larger;
    }
    this.length += scratch.write(text, this.length);
  }
}

/**
 * The rows of a chunk's new lines: `entries` and their keys (`keyAt`, by index in the chunk) from the
 * file's entry `start`, their statements' numbers by file index, the plan's counters saying which are
 * new and their ids' order.
 */
export function lineRowsOf(
  entries: readonly StatementEntry[],
  keyAt: (index: number) => string,
  statementOf: (fileIndex: number) => number,
  start: number,
  plan: ChunkPlan,
): LineRows {
  if (plan.counters.length !== entries.length)
    throw new RangeError(`a plan of ${plan.counters.length} lines for a chunk of ${entries.length}`);
  const fresh: number[] = [];
  for (let k = 0; k < entries.length; k++) if (plan.counters[k]! >= 0) fresh.push(k);
  // In id order inside the INSERT: the primary key's pages are written in the order it keeps.
  fresh.sort((a, b) => plan.counters[a]! - plan.counters[b]!);
  const ids = orderedIdsAt(
    fresh.map((k) => plan.counters[k]!),
    plan.now,
  );
  let n = 0; // the row a cell is asked for, in id order
  const cursor: NewLine = {
    entry: entries[0]!,
    id: () => ids[n]!,
    key: () => keyAt(fresh[n]!),
    statementNumber: () => statementOf(start + fresh[n]!),
  };
  const literals = new LiteralsWriter();
  for (const [, , cell] of LINE_COLUMNS)
    literals.column(fresh.length, (row) => {
      n = row;
      cursor.entry = entries[fresh[row]!]!;
      return cell(cursor);
    });
  return {
    count: fresh.length,
    literals: literals.written(),
    ends: literals.ends,
    asks: asksOf(fresh.map((k) => entries[k]!)),
  };
}

/** The span of days, the distinct references and the returns naming none, of these entries. */
function asksOf(entries: readonly StatementEntry[]): ChunkAsks {
  let firstDate: string | null = null;
  let lastDate: string | null = null;
  const endToEndIds = new Set<string>();
  const returnedEndToEndIds = new Set<string>();
  const batchIds = new Set<string>();
  const unnamedReturns: ChunkAsks['unnamedReturns'] = [];
  for (const entry of entries) {
    if (firstDate === null || entry.bookingDate < firstDate) firstDate = entry.bookingDate;
    if (lastDate === null || entry.bookingDate > lastDate) lastDate = entry.bookingDate;
    if (entry.endToEndId !== null) endToEndIds.add(entry.endToEndId);
    if (entry.batchId !== null) batchIds.add(entry.batchId);
    if (entry.kind === 'return' && entry.endToEndId !== null) returnedEndToEndIds.add(entry.endToEndId);
    else if (entry.kind === 'return' && entry.amountCents > 0)
      unnamedReturns.push({ amountCents: entry.amountCents, bankDate: entry.bookingDate });
  }
  return {
    firstDate,
    lastDate,
    endToEndIds: [...endToEndIds],
    returnedEndToEndIds: [...returnedEndToEndIds],
    batchIds: [...batchIds],
    unnamedReturns,
  };
}

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

/** One INSERT's worth of new lines: the column literals of `LINE_COLUMNS`, in id order. */
export interface LineRows {
  count: number;
  columns: string[];
  asks: ChunkAsks;
}

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

/** An entry as its line, with its id, key and statement. */
interface NewLine {
  id: string;
  key: string;
  statementNumber: number;
  entry: StatementEntry;
}

/** The columns written (the rest take their defaults: UNMATCHED, no decision) and each one's cell. */
export const LINE_COLUMNS: [column: string, type: string, cell: (line: NewLine) => LineCell][] = [
  ['id', 'uuid', (l) => l.id],
  ['statement_number', 'smallint', (l) => l.statementNumber],
  ['line_number', 'int', (l) => l.entry.lineNumber],
  ['dedup_key', 'text', (l) => l.key],
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

/**
 * A `text[]` literal written here rather than by the driver: every value as text, cast in SQL, as the
 * seed's bulk insert does, so both drivers send the same literals (decision 0109).
 */
const nullableTextArray = (cells: readonly LineCell[]): string =>
  `{${cells.map((cell) => (cell === null ? 'NULL' : `"${String(cell).replace(/["\\]/g, '\\$&')}"`)).join(',')}}`;

/**
 * The rows of a chunk's new lines: `entries` and their `keys` from the file's entry `start`, their
 * statements' numbers by file index, the plan's counters saying which are new and their ids' order.
 */
export function lineRowsOf(
  entries: readonly StatementEntry[],
  keys: readonly string[],
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
  const lines: NewLine[] = fresh.map((k, n) => ({
    id: ids[n]!,
    key: keys[k]!,
    statementNumber: statementOf(start + k),
    entry: entries[k]!,
  }));
  return {
    count: lines.length,
    columns: LINE_COLUMNS.map(([, , cell]) => nullableTextArray(lines.map(cell))),
    asks: asksOf(lines.map((line) => line.entry)),
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

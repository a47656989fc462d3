export type StatementFormat = 'csv' | 'camt053' | 'mt940';
export type EntryKind = 'transfer' | 'return' | 'fee' | 'other';

/** One normalised bank-statement line, whatever the source format. */
export interface StatementEntry {
  bookingDate: string;
  valueDate: string | null;
  /** Signed: debits negative. */
  amountCents: number;
  currency: string;
  description: string;
  counterpartyName: string | null;
  counterpartyIban: string | null;
  bankReference: string | null;
  endToEndId: string | null;
  /** PmtInfId, else MsgId, of the batch this entry belongs to. */
  batchId: string | null;
  kind: EntryKind;
  returnReason: string | null;
  lineNumber: number;
}

/**
 * Every code a statement parser can put in `ParseError.code`, one per meaning; each is translated under
 * `statements.parseErrors.<CODE>` in both locales (tests/unit/domain/statement-parse-errors.test.ts reads
 * the parsers' sources and the locale files to hold that).
 */
export const PARSE_ERROR_CODES = [
  // any format
  'FILE_TOO_LARGE',
  'UNREADABLE',
  'NO_ENTRIES',
  'LINE_TOO_LONG',
  'INVALID_DATE',
  'INVALID_AMOUNT',
  'BALANCE_MISMATCH',
  'MISSING_CLOSING_BALANCE',
  // camt (XML)
  'DOCTYPE_NOT_ALLOWED',
  'MALFORMED_XML',
  'TOO_DEEP',
  'UNCLOSED_XML',
  'NOT_CAMT',
  'UNKNOWN_ENTRY_STATUS',
  'INVALID_INDICATOR',
  'BATCH_NOT_EXPANDED',
  // MT940
  'INVALID_BALANCE',
  'INVALID_TRANSACTION_LINE',
  // CSV
  'HEADER_NOT_FOUND',
  'MISSING_AMOUNT',
  'TOO_MANY_DECIMALS',
  'AMOUNT_OUT_OF_RANGE',
  'INVALID_VALUE_DATE',
  'UNTERMINATED_QUOTE',
  'TOO_MANY_QUOTE_ERRORS',
  'ROW_TOO_SHORT',
  'VALUE_CUT',
] as const;

export type ParseErrorCode = (typeof PARSE_ERROR_CODES)[number];

export interface ParseError {
  line: number;
  code: ParseErrorCode;
  /**
   * Index in `ParseResult.statements` of the statement the error belongs to, when it belongs to one
   * (BALANCE_MISMATCH, MISSING_CLOSING_BALANCE, an entry's error); absent for errors of the file.
   */
  statement?: number;
}

/** Opening and closing balances in cents (signed); `consistent` = opening + entries = closing. */
export interface BalanceCheck {
  opening: number;
  closing: number;
  consistent: boolean;
}

/** How a file's bytes were read as text (decode.ts). */
export type TextEncodingName = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';

export const CSV_FIELDS = [
  'bookingDate',
  'valueDate',
  'description',
  'amount',
  'debit',
  'credit',
  'currency',
  'counterpartyName',
  'counterpartyIban',
  'bankReference',
  'endToEndId',
  'accountIban',
] as const;

export type CsvField = (typeof CSV_FIELDS)[number];

/** Explicit mapping: column header names or 0-based indexes; `headerLine` is 1-based (0 = no header). */
export type CsvMapping = Partial<Record<CsvField, string | number>> & {
  headerLine?: number;
  delimiter?: string;
};

/** How a CSV was read: its header row (or first row, when none was found), delimiter and mapping. */
export interface CsvLayout {
  header: string[];
  delimiter: string;
  /**
   * The mapping used: the one given (with the delimiter and header line it was read with), or the one
   * guessed from the header, as column indexes. Passed back unchanged, it reads the same entries.
   */
  mapping: CsvMapping;
}

/**
 * One statement of one account inside a file. A file may hold several (MT940 `:20:`…`:62F:` blocks, camt
 * `Stmt` elements, one per account and period); each is stored, deduplicated and checked for continuity
 * on its own (issue 27). Its entries are `ParseResult.entries[firstEntry, firstEntry + entryCount)`.
 */
export interface StatementInfo {
  /** IBAN in electronic format, else the bank's account identification as written; null when the file names none. */
  accountIban: string | null;
  /** The account's currency (camt `Acct/Ccy`, MT940 balance currency); null when not stated. */
  currency: string | null;
  /** The bank's identity of this statement: camt `Stmt/Id`, MT940 `:20:`; null when none (CSV). */
  statementId: string | null;
  /** camt `ElctrncSeqNb` (else `LglSeqNb`), MT940 `:28C:`; null when not given. */
  sequence: string | null;
  /** First and last day covered: camt `FrToDt`, else the balances' dates, else the first and last booking dates. */
  periodStart: string | null;
  periodEnd: string | null;
  /** Opening and closing balances when the statement states both. */
  balance: BalanceCheck | null;
  firstEntry: number;
  entryCount: number;
}

/** An entry read but not imported: pending (camt `Sts` PDNG) or informational (INFO) entries. */
export interface SkippedEntry {
  /** Index in `ParseResult.statements`. */
  statement: number;
  line: number;
  reason: 'PENDING' | 'INFORMATION';
  bookingDate: string | null;
  amountCents: number | null;
  description: string;
}

export interface ParseResult {
  format: StatementFormat;
  /** Every statement's entries, statement after statement (see `StatementInfo.firstEntry`). */
  entries: StatementEntry[];
  /** At least one when entries were read; a CSV's: one per run of consecutive rows of one account. */
  statements: StatementInfo[];
  skipped: SkippedEntry[];
  errors: ParseError[];
  /** Deprecated view kept while consumers move to `statements`: every statement's balances combined. */
  balance: BalanceCheck | null;
  /**
   * Deprecated view kept while consumers move to `statements`: the first statement's account. camt `Acct/Id/IBAN` (else `Acct/Id/Othr/Id`), MT940 `:25:` (its IBAN
   * when it holds one, else the bank's account identification as written, e.g. `10020030/1234567`),
   * CSV: an IBAN in an account column or in the rows above the header, else null.
   */
  accountIban: string | null;
  /** How the bytes were decoded; null when text was given. */
  encoding: TextEncodingName | null;
  /** CSV only (null for camt.053 and MT940). */
  csv: CsvLayout | null;
}

/** A result with nothing read: only `errors`. */
export function unreadable(format: StatementFormat, errors: ParseError[]): ParseResult {
  return {
    format,
    entries: [],
    statements: [],
    skipped: [],
    errors,
    balance: null,
    accountIban: null,
    encoding: null,
    csv: null,
  };
}

/** The first and last booking dates of `entries[from, to)` (ISO dates compare as text); nulls when none. */
export function bookingSpan(
  entries: readonly StatementEntry[],
  from = 0,
  to = entries.length,
): { first: string | null; last: string | null } {
  let first: string | null = null;
  let last: string | null = null;
  for (let i = from; i < to; i++) {
    const date = entries[i]!.bookingDate;
    if (first === null || date < first) first = date;
    if (last === null || date > last) last = date;
  }
  return { first, last };
}

export const MAX_STATEMENT_BYTES = 100 * 1024 * 1024;

/** Combines per-statement checks: first opening, last closing, consistent only if each one is. */
export function combineBalances(parts: BalanceCheck[]): BalanceCheck | null {
  if (parts.length === 0) return null;
  return {
    opening: parts[0]!.opening,
    closing: parts[parts.length - 1]!.closing,
    consistent: parts.every((p) => p.consistent),
  };
}

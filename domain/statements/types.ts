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

export interface ParseError {
  line: number;
  code: string;
}

/** Opening and closing balances in cents (signed); `consistent` = opening + entries = closing. */
export interface BalanceCheck {
  opening: number;
  closing: number;
  consistent: boolean;
}

export interface ParseResult {
  format: StatementFormat;
  entries: StatementEntry[];
  errors: ParseError[];
  balance: BalanceCheck | null;
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

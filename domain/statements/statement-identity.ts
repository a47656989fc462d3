import type { LineKeyRule } from './line-key';

/**
 * How a bank's statements relate to each other (issue 27, docs/decisions/0121): the same statement
 * again, two statements whose periods overlap, and whether one continues the one before it. Pure: the
 * import, the preview's known-lines question and the files list all judge with these.
 */

/** One account's statement of one period, as the bank identifies it. Days are `YYYY-MM-DD`. */
export interface StatementIdentity {
  accountIban: string;
  statementId: string | null;
  sequence: string | null;
  periodStart: string;
  periodEnd: string;
  openingBalanceCents: number | null;
  closingBalanceCents: number | null;
}

/** Why a line counts as imported before. */
export type KnownReason = 'BANK_REFERENCE' | 'SAME_STATEMENT' | 'SAME_CONTENT';

/** The bank's identity: account, statement id and sequence, and period. Without a statement id, never. */
export function sameStatement(a: StatementIdentity, b: StatementIdentity): boolean {
  return (
    a.statementId !== null &&
    a.accountIban === b.accountIban &&
    a.statementId === b.statementId &&
    a.sequence === b.sequence &&
    a.periodStart === b.periodStart &&
    a.periodEnd === b.periodEnd
  );
}

/**
 * One statement follows the other by the bank's own numbering and balances: different sequence numbers,
 * and the earlier one's closing balance is the later one's opening balance. Two such statements are
 * consecutive even when both cover their boundary day (an intraday cut).
 */
function chained(earlier: StatementIdentity, later: StatementIdentity): boolean {
  return (
    earlier.periodEnd <= later.periodStart &&
    earlier.closingBalanceCents !== null &&
    earlier.closingBalanceCents === later.openingBalanceCents
  );
}

/** Their days intersect, unless the bank's sequence numbers and balances say one follows the other. */
export function periodsOverlap(a: StatementIdentity, b: StatementIdentity): boolean {
  if (a.periodStart > b.periodEnd || b.periodStart > a.periodEnd) return false;
  const distinctSequences = a.sequence !== null && b.sequence !== null && a.sequence !== b.sequence;
  return !(distinctSequences && (chained(a, b) || chained(b, a)));
}

/**
 * Whether a line of `statement` with the same key as a line of `earlier` is that line: a bank reference
 * recognises it anywhere in the account (the key holds the account), its content only within an
 * overlapping statement — two identical payments in consecutive statements are two payments.
 */
export function recognisedBy(
  statement: StatementIdentity,
  earlier: StatementIdentity,
  rule: LineKeyRule,
): KnownReason | null {
  if (rule === 'BANK_REFERENCE') return 'BANK_REFERENCE';
  return periodsOverlap(statement, earlier) ? 'SAME_CONTENT' : null;
}

export type Continuity = 'FIRST' | 'CONTINUES' | 'GAP' | 'OVERLAP';

const nextDay = (day: string) => {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + 1);
  return date.toISOString().slice(0, 10);
};

/**
 * How a statement follows its account's previous one: OVERLAP when their periods overlap; else CONTINUES
 * when its opening balance is the previous closing one (or, without balances, when it starts the day
 * after), GAP otherwise — with the difference in cents when both balances are known.
 */
export function continuityOf(
  previous: StatementIdentity | null,
  statement: StatementIdentity,
): { continuity: Continuity; gapCents: number | null } {
  if (previous === null) return { continuity: 'FIRST', gapCents: null };
  if (periodsOverlap(previous, statement)) return { continuity: 'OVERLAP', gapCents: null };
  const closing = previous.closingBalanceCents;
  const opening = statement.openingBalanceCents;
  if (closing !== null && opening !== null)
    return closing === opening
      ? { continuity: 'CONTINUES', gapCents: null }
      : { continuity: 'GAP', gapCents: opening - closing };
  return nextDay(previous.periodEnd) >= statement.periodStart
    ? { continuity: 'CONTINUES', gapCents: null }
    : { continuity: 'GAP', gapCents: null };
}

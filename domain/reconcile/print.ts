import type { StatementEntry } from '../statements/types';

/**
 * What tells a payment on a statement line: every field but its position in the file and the bank's own
 * reference of the entry (`AcctSvcrRef`), which a bank gives each entry it books, a line booked twice too.
 * Two lines printed alike are the same payment as far as anything on the statement says. The amount and
 * the booking day come first: they tell most lines apart at once.
 */
const PRINTED = [
  'amountCents',
  'bookingDate',
  'description',
  'valueDate',
  'currency',
  'counterpartyName',
  'counterpartyIban',
  'endToEndId',
  'batchId',
  'kind',
  'returnReason',
] as const satisfies readonly (keyof StatementEntry)[];

/** A line's print as one string, to look lines printed alike up in a set. */
export const printOf = (entry: StatementEntry): string =>
  JSON.stringify(PRINTED.map((field) => entry[field]));

/** The two lines are printed alike (`printOf`), compared field by field. */
export function samePrint(a: StatementEntry, b: StatementEntry): boolean {
  for (const field of PRINTED) if (a[field] !== b[field]) return false;
  return true;
}

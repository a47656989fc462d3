import type { StatementEntry } from '../statements/types';
import {
  type ExpectedItem,
  type Match,
  type MatchEntry,
  type MatchOptions,
  reconcile,
  SURE_SUGGESTION,
} from './match';

/**
 * What tells a payment on a statement line: every field but its position in the file and the bank's own
 * reference of the entry (`AcctSvcrRef`), which a bank gives each entry it books, a line booked twice too.
 * Two lines printed alike are the same payment as far as anything on the statement says.
 */
export const printOf = (entry: StatementEntry): string =>
  JSON.stringify([
    entry.bookingDate,
    entry.valueDate,
    entry.amountCents,
    entry.currency,
    entry.description,
    entry.counterpartyName,
    entry.counterpartyIban,
    entry.endToEndId,
    entry.batchId,
    entry.kind,
    entry.returnReason,
  ]);

/**
 * The suggestions said again for a statement's open lines of one amount after a person decided one of
 * them (decision 0179): the matcher over those lines and the counterparts still open, so a line whose
 * rival the decision took is sure now. `decided` are the file's lines of those amounts a person or a
 * reference has decided: an open line printed exactly as one of them is never sure — a bank that prints
 * a line twice leaves the copy looking like a second payment of the same payer, whose open document it
 * would take (the import saw the two lines together and was sure of neither). `options.railKept` carries
 * the whole file's judgement of its rail (too few lines here to judge it), `options.learned` the rules
 * as they stood at the import (one match just made must not steer a name several customers print).
 */
export function sayAgain(
  open: MatchEntry[],
  decided: readonly StatementEntry[],
  items: ExpectedItem[],
  options: MatchOptions,
): Match[] {
  if (open.length === 0 || items.length === 0) return [];
  const printed = new Set(decided.map(printOf));
  const copies = new Set(open.filter((e) => printed.has(printOf(e))).map((e) => e.id));
  return reconcile(open, items, options).suggestions.map((s) =>
    s.confidence >= SURE_SUGGESTION && copies.has(s.entryIds[0]!)
      ? { ...s, confidence: SURE_SUGGESTION - 0.01 }
      : s,
  );
}

import type { StatementEntry } from '../statements/types';
import { type ExpectedItem, type Match, type MatchEntry, type MatchOptions, reconcile } from './match';
import { printOf } from './print';

/**
 * The suggestions said again for a statement's open lines of one amount after a person decided one of
 * them (decision 0179): the matcher over those lines and the counterparts still open, so a line whose
 * rival the decision took is sure now. `decided` are the file's lines of those amounts a person or a
 * reference has decided: an open line printed exactly as one of them is never sure, nor does its pair
 * clear another line's rival (`MatchOptions.neverSure`, decision 0185) — a bank that prints a line twice
 * leaves the copy looking like a second payment of the same payer, whose open document it would take (the
 * import saw the two lines together: one sure, the copy not). `options.railKept` carries
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
  return reconcile(open, items, { ...options, neverSure: copies }).suggestions;
}

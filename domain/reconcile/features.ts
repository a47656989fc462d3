// What the matcher compares between a bank entry and an expected item, shared by the bulk matcher
// (match.ts) and the per-line candidates (candidates.ts) so both score a pair the same way.
import type { StatementEntry } from '../statements/types';

/** The item's amount with the sign it has on the statement: money leaving is negative. */
export function signedExpected(item: {
  type: string;
  amountCents: number;
  direction?: 'in' | 'out';
}): number {
  const dir = item.direction ?? (item.type === 'sepa' ? 'out' : 'in');
  return dir === 'out' ? -item.amountCents : item.amountCents;
}

/** Words of 3+ letters or digits, upper case, accents dropped: what counterparty names are compared by. */
export function tokens(s: string | null | undefined): string[] {
  if (!s) return [];
  // Decomposing and dropping accents changes nothing in printable ASCII.
  return (/[^\t -~]/.test(s) ? s.normalize('NFD').replace(/[\u0300-\u036f]/g, '') : s)
    .toUpperCase()
    .split(/[^A-Z0-9]+/)
    .filter((t) => t.length >= 3);
}

/** Where an entry may name a payout or invoice: EndToEndId, bank reference, then the description's words. */
export function referenceWords(
  entry: Pick<StatementEntry, 'endToEndId' | 'bankReference' | 'description'>,
  withDescription = true,
) {
  const words: string[] = [];
  if (entry.endToEndId) words.push(entry.endToEndId.toUpperCase());
  if (entry.bankReference) words.push(entry.bankReference.toUpperCase());
  if (!withDescription) return words;
  // Upper-casing never yields a separator, so the description is upper-cased once, then split.
  for (const w of entry.description.toUpperCase().split(REFERENCE_SEPARATORS)) if (w) words.push(w);
  return words;
}

/** What splits a description into the words a reference is looked for among. */
const REFERENCE_SEPARATOR = /[\s,;:()/]/;
const REFERENCE_SEPARATORS = new RegExp(`${REFERENCE_SEPARATOR.source}+`);

/** A reference that holds a separator is never one of a description's words: only a line's EndToEndId or bank reference can be it. */
export const inDescriptionWords = (reference: string) => !REFERENCE_SEPARATOR.test(reference);

const dayCache = new Map<string, number>();

/** Days since 1970 for a 'YYYY-MM-DD' date, NaN when it is not one (memoised: a statement has few dates). */
export function dayNumber(date: string): number {
  let n = dayCache.get(date);
  if (n === undefined) {
    n = Math.floor(
      Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) /
        86_400_000,
    );
    if (dayCache.size > 100_000) dayCache.clear();
    dayCache.set(date, n);
  }
  return n;
}

/**
 * How well the counterparty agrees, as the matcher's suggestions weigh it: 0 = contradicts (other
 * IBAN, or none of the expected name's words), 0.5 = nothing to compare, up to 1 = same IBAN or every
 * word of the expected name in the entry's name or description.
 */
export function partyScore(found: number, wanted: number, entryWords: number): number {
  if (wanted === 0 || entryWords === 0) return 0.5;
  return found === 0 ? 0 : 0.5 + (0.5 * found) / wanted;
}

/** A suggestion's score: exact amount assumed; counterparty and date distance within the window. */
export function suggestionScore(party: number, days: number, windowDays: number): number {
  return Math.round((0.5 + 0.3 * party + (0.2 * (windowDays - days)) / (windowDays + 1)) * 100) / 100;
}

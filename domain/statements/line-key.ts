import { sha256Hex } from '../sha256';
import type { StatementEntry } from './types';

/** What identifies a bank entry: a `StatementEntry` has all of it. */
export type StatementLineKeyFields = Pick<
  StatementEntry,
  'bookingDate' | 'valueDate' | 'amountCents' | 'bankReference' | 'endToEndId' | 'description'
>;

const SEPARATOR = '\u001f';

/**
 * SHA-256 of a string's UTF-8 as lower-case hex. The plain-TypeScript one serves the browser; the server
 * passes node:crypto's, ~20× faster on 100,000 lines — the same digest, so the same keys.
 */
export type HashHex = (text: string) => string;

/** Runs of whitespace and control characters (the separator among them) become one space; ends trimmed. */
function canonicalText(value: string | null): string {
  return (value ?? '').replace(/[\s\p{Cc}]+/gu, ' ').trim();
}

/** An IBAN in electronic format: no spaces or hyphens, upper case (as `normalizeIban` writes it). */
function canonicalIban(value: string): string {
  return value.replace(/[\s-]+/g, '').toUpperCase();
}

/**
 * The natural key of a bank entry, stored in `statement_lines.dedup_key` (unique): the same entry in two
 * overlapping statements of one account gives the same key, so it is imported once (DESIGN.md §6,
 * docs/decisions/0012).
 *
 * Definition (recipe v1): lower-case hex SHA-256 of the UTF-8 of these parts joined with U+001F:
 *
 *   1. account IBAN, electronic format (spaces and hyphens removed, upper case);
 *   2. booking date, `YYYY-MM-DD`;
 *   3. signed amount in cents, in decimal (`-1234`);
 *   4. bank reference, or empty;
 *   5. EndToEndId, or empty;
 *   6. description;
 *   7. occurrence: 0 for the first entry of a statement with parts 1–6 (and 8), 1 for the second, …;
 *   8. only when the value date is known and differs from the booking date: the value date, `YYYY-MM-DD`.
 *
 * Text parts (4–6) are canonical: runs of whitespace and control characters become one space and the
 * ends are trimmed, so the layout noise the statement parsers already normalise (padding, line breaks in
 * a remittance, tabs, an absent reference written as "") never changes a key, and no part can contain
 * the separator. A value date that is absent or equal to the booking date adds no part, so every key
 * written before value dates were part of the recipe is unchanged.
 *
 * Pure and synchronous (no node:crypto): the console can compute it in the browser to preview which
 * lines of an upload are already imported. Changing the recipe re-imports old lines: version it.
 */
export function statementLineKey(
  accountIban: string,
  entry: StatementLineKeyFields,
  occurrence: number,
  hash: HashHex = sha256Hex,
): string {
  const parts: (string | number)[] = [
    canonicalIban(accountIban),
    entry.bookingDate,
    entry.amountCents,
    canonicalText(entry.bankReference),
    canonicalText(entry.endToEndId),
    canonicalText(entry.description),
    occurrence,
  ];
  if (entry.valueDate && entry.valueDate !== entry.bookingDate) parts.push(entry.valueDate);
  return hash(parts.join(SEPARATOR));
}

/**
 * The keys of one statement's entries, in order: genuinely identical entries in one statement (two
 * equal fees on one day) get occurrences 0, 1, … in the order the statement lists them.
 */
export function statementLineKeys(
  accountIban: string,
  entries: readonly StatementLineKeyFields[],
  hash: HashHex = sha256Hex,
): string[] {
  const seen = new Map<string, number>();
  return entries.map((entry) => {
    const base = statementLineKey(accountIban, entry, 0, hash);
    const occurrence = seen.get(base) ?? 0;
    seen.set(base, occurrence + 1);
    return occurrence === 0 ? base : statementLineKey(accountIban, entry, occurrence, hash);
  });
}

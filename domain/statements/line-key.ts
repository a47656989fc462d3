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

/**
 * An account as keys and statements hold it: an IBAN in electronic format (no spaces or hyphens, upper
 * case, as `normalizeIban` writes it), a bank's other account identification likewise.
 */
export function canonicalAccount(value: string): string {
  return value.replace(/[\s-]+/g, '').toUpperCase();
}

/**
 * What a bank writes where it has no reference of its own (MT940 `NONREF`, camt `NOTPROVIDED`): such a
 * value identifies nothing, so a line carrying one is recognised by its content.
 */
const PLACEHOLDER_REFERENCES: ReadonlySet<string> = new Set([
  'NONREF',
  'NOTPROVIDED',
  'NOT PROVIDED',
  'NONE',
  'N/A',
  'NA',
  '-',
  '0',
]);

/**
 * The bank's own reference of an entry (camt `AcctSvcrRef`/`NtryRef`, MT940 `//…`, a CSV reference
 * column) in canonical form, or null when it gives none or only a placeholder. Migration 0034 applies
 * the same rule in SQL to the lines stored before (keep both in step).
 */
export function bankReferenceOf(reference: string | null): string | null {
  const canonical = canonicalText(reference);
  return canonical === '' || PLACEHOLDER_REFERENCES.has(canonical.toUpperCase()) ? null : canonical;
}

/** How a line is recognised as one imported before (docs/decisions/0121). */
export type LineKeyRule = 'BANK_REFERENCE' | 'CONTENT';

export const lineKeyRule = (entry: Pick<StatementLineKeyFields, 'bankReference'>): LineKeyRule =>
  bankReferenceOf(entry.bankReference) === null ? 'CONTENT' : 'BANK_REFERENCE';

/** The first part of a bank-reference key: no IBAN or account identification can be this. */
const REFERENCE_KEY_TAG = 'v2:bank-reference';

/**
 * The content key of a bank entry (the whole key in recipe v1, still the key of every line without a
 * bank reference of its own in v2): the same entry in two overlapping statements of one account gives
 * the same key, so it is imported once (DESIGN.md §6, docs/decisions/0012, 0121).
 *
 * Definition: lower-case hex SHA-256 of the UTF-8 of these parts joined with U+001F:
 *
 *   1. account IBAN, electronic format (spaces and hyphens removed, upper case) — never empty from v2 on:
 *      an import names the account of every statement;
 *   2. booking date, `YYYY-MM-DD`;
 *   3. signed amount in cents, in decimal (`-1234`);
 *   4. bank reference (a placeholder, or empty);
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
 * A content key alone does not make a line known: only a line of a statement of the same account whose
 * period overlaps (docs/decisions/0121) — two identical payments in two consecutive statements are two.
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
    canonicalAccount(accountIban),
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
 * The bank-reference key of an entry whose bank gives a reference of its own (recipe v2): the line is
 * the same wherever it appears in the account's statements, whatever their periods. Lower-case hex
 * SHA-256 of, joined with U+001F: `v2:bank-reference`, the account (as in the content key), the booking
 * date, the signed amount in cents, the canonical reference, and the occurrence among the statement's
 * entries with the same parts. The date and amount stay in, so a bank that reuses a reference for
 * another movement does not hide it.
 */
export function referenceLineKey(
  accountIban: string,
  entry: StatementLineKeyFields,
  occurrence: number,
  hash: HashHex = sha256Hex,
): string {
  const reference = bankReferenceOf(entry.bankReference);
  if (reference === null) throw new Error('referenceLineKey: the entry has no bank reference');
  return hash(
    [
      REFERENCE_KEY_TAG,
      canonicalAccount(accountIban),
      entry.bookingDate,
      entry.amountCents,
      reference,
      occurrence,
    ].join(SEPARATOR),
  );
}

/** The key of an entry by its rule (recipe v2): its bank reference where it has one, else its content. */
export const lineKeyOf = (
  accountIban: string,
  entry: StatementLineKeyFields,
  occurrence: number,
  hash: HashHex = sha256Hex,
): string =>
  lineKeyRule(entry) === 'BANK_REFERENCE'
    ? referenceLineKey(accountIban, entry, occurrence, hash)
    : statementLineKey(accountIban, entry, occurrence, hash);

/**
 * The keys of ONE statement's entries (recipe v2), in order: genuinely identical entries in one
 * statement (two equal fees on one day) get occurrences 0, 1, … in the order the statement lists them.
 * A file of several statements gives each its own keys, with the account of that statement.
 */
export function statementLineKeys(
  accountIban: string,
  entries: readonly StatementLineKeyFields[],
  hash: HashHex = sha256Hex,
): string[] {
  const seen = new Map<string, number>();
  return entries.map((entry) => {
    const base = lineKeyOf(accountIban, entry, 0, hash);
    const occurrence = seen.get(base) ?? 0;
    seen.set(base, occurrence + 1);
    return occurrence === 0 ? base : lineKeyOf(accountIban, entry, occurrence, hash);
  });
}

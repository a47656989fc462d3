import { createHash } from 'node:crypto';
import type { StatementMismatch } from '../../contract/statement-import';
import { checkIban } from '../../domain/iban';
import { canonicalAccount, type HashHex, lineKeyRule } from '../../domain/statements/line-key';
import {
  type KnownReason,
  recognisedBy,
  type StatementIdentity,
  sameStatement,
} from '../../domain/statements/statement-identity';
import type { BalanceCheck, ParseResult, StatementEntry } from '../../domain/statements/types';
import type { Queryable } from '../db/client';
import { Refusal, refuse } from '../platform/refusal';
import { hexKeysOf, packedKeysOf, recogniseStatementLines, type StatementKeys } from './known-lines';
import { PackedKeys } from './packed-keys';
import type { UploadRefusal } from './upload-guards';

/**
 * What an import makes of a parsed file before it writes anything (issue 27, docs/decisions/0121): each
 * statement with its account, period and line keys, the mismatches the admin must decide on, and which
 * lines are known already — the preview's answer, plus the file's own earlier statements.
 */

/** One statement of the upload as it will be stored and judged (issue 27, docs/decisions/0121). */
export interface PlannedStatement {
  /** Its position in the file. */
  number: number;
  identity: StatementIdentity;
  currency: string | null;
  balance: BalanceCheck | null;
  /** Its entries' place in the file's (`ParseResult.entries`), which the import streams (decision 0144). */
  firstEntry: number;
  entryCount: number;
  /** What the import needs of each entry before it streams them: a few bytes a line. */
  lines: LineFacts;
  /** Σ of its entries' amounts. */
  entriesSumCents: number;
  /** `statementLineKeys` of its entries, with its account, packed as they are made (decision 0150). */
  keys: PackedKeys;
  /** Pending entries the parser read and left out. */
  pending: number;
}

/**
 * What the import knows of a statement's entries before it streams them (decision 0144), in typed
 * arrays rather than an object per line: where each is in the file (a skipped line is named by it),
 * its booking day (the ids follow booking date, then file order) and whether the bank referenced it
 * (which rule recognises it).
 */
export interface LineFacts {
  lineNumbers: Int32Array;
  /** The distinct booking days, ascending; each entry's is `days[dayIndexes[i]]`. */
  days: string[];
  dayIndexes: Uint32Array;
  /** 1 where the entry has a bank reference of its own (`lineKeyRule` BANK_REFERENCE). */
  referenced: Uint8Array;
}

/** The facts of these entries. */
export function lineFactsOf(entries: readonly StatementEntry[]): LineFacts {
  const days = [...new Set(entries.map((entry) => entry.bookingDate))].sort();
  const dayIndex = new Map(days.map((day, n) => [day, n]));
  const facts: LineFacts = {
    lineNumbers: new Int32Array(entries.length),
    days,
    dayIndexes: new Uint32Array(entries.length),
    referenced: new Uint8Array(entries.length),
  };
  entries.forEach((entry, n) => {
    facts.lineNumbers[n] = entry.lineNumber;
    facts.dayIndexes[n] = dayIndex.get(entry.bookingDate)!;
    facts.referenced[n] = lineKeyRule(entry) === 'BANK_REFERENCE' ? 1 : 0;
  });
  return facts;
}

/**
 * The statements planned, or why they cannot be (`STATEMENT_ACCOUNT_REQUIRED`, `STATEMENT_UNREADABLE`) as
 * data: planned in a worker thread for big files (statement-reader.ts), where a thrown Refusal would lose
 * its class. The import throws the refusal only after its checks of the parse, in the order it always had.
 */
export type StatementPlanning = { refused: UploadRefusal } | { statements: PlannedStatement[] };

/** The line keys' hash (decision 0012): SHA-256, hex. */
const sha256Hex: HashHex = (text) => createHash('sha256').update(text).digest('hex');

/** `planStatements` with the keys' hash, its refusal answered as data (StatementPlanning). */
export function planUpload(parsed: ParseResult, chosenAccount: string | null): StatementPlanning {
  try {
    return { statements: planStatements(parsed, chosenAccount, sha256Hex) };
  } catch (error) {
    if (error instanceof Refusal) return { refused: { code: error.code } };
    throw error;
  }
}

/** A line recognised as imported before: the rule, and the file (null: an earlier statement of this one). */
export interface KnownEntry {
  reason: KnownReason;
  statementFileId: string | null;
}

/** The account the admin chose for statements whose file names none: an IBAN, mod-97 checked. */
export function checkedAccount(input: string): string {
  const check = checkIban(input);
  if (!check.valid) throw refuse('STATEMENT_ACCOUNT_INVALID');
  return check.iban;
}

/** Each statement of the file with its account (the file's, else the chosen one), period and keys. */
export function planStatements(
  parsed: ParseResult,
  chosenAccount: string | null,
  hash: HashHex,
): PlannedStatement[] {
  // Every parser answers at least one statement for the entries it read (decision 0120).
  return parsed.statements.map((info, number) => {
    const named = info.accountIban === null ? null : canonicalAccount(info.accountIban);
    const accountIban = named || chosenAccount;
    // Never an empty account in a key: two accounts' identical fees would be one line (issue 27).
    if (!accountIban) throw refuse('STATEMENT_ACCOUNT_REQUIRED');
    const entries = parsed.entries.slice(info.firstEntry, info.firstEntry + info.entryCount);
    const lines = lineFactsOf(entries);
    const { days } = lines;
    const periodStart = info.periodStart ?? days[0] ?? info.periodEnd;
    const periodEnd = info.periodEnd ?? days[days.length - 1] ?? periodStart;
    // The parsers give a period to every statement with entries; one with neither says nothing to store.
    if (!periodStart || !periodEnd) throw refuse('STATEMENT_UNREADABLE');
    // A bank's dates the wrong way round still name the same days.
    const [first, last] = [periodStart, periodEnd].sort();
    return {
      number,
      identity: {
        accountIban,
        statementId: info.statementId,
        sequence: info.sequence,
        periodStart: first!,
        periodEnd: last!,
        openingBalanceCents: info.balance?.opening ?? null,
        closingBalanceCents: info.balance?.closing ?? null,
      },
      currency: info.currency,
      balance: info.balance,
      firstEntry: info.firstEntry,
      entryCount: entries.length,
      lines,
      entriesSumCents: entries.reduce((total, entry) => total + entry.amountCents, 0),
      keys: PackedKeys.ofStatement(accountIban, entries, hash),
      pending: parsed.skipped.filter((skipped) => skipped.statement === number).length,
    };
  });
}

/** What a statement whose balances do not add up says, for the admin's decision. */
export function mismatchOf(statement: PlannedLines): StatementMismatch {
  const { entriesSumCents } = statement;
  const { opening, closing } = statement.balance!;
  return {
    index: statement.number,
    accountIban: statement.identity.accountIban,
    periodStart: statement.identity.periodStart,
    periodEnd: statement.identity.periodEnd,
    openingBalanceCents: opening,
    closingBalanceCents: closing,
    entriesSumCents,
    differenceCents: closing - (opening + entriesSumCents),
  };
}

/** A statement planned, without its keys: what the import holds while the keys stay with the reader (0144). */
export type PlannedLines = Omit<PlannedStatement, 'keys'>;

/**
 * Per statement, its lines imported before (by key index): from earlier files (`recogniseStatementLines`,
 * the preview's answer) and from the file's own earlier statements of the same account, by the same rules.
 * `keysOf(n)`: statement n's keys, wherever they are held.
 */
export async function recogniseFile(
  db: Queryable,
  statements: readonly PlannedLines[],
  keysOf: (statement: number) => StatementKeys,
): Promise<Map<number, KnownEntry>[]> {
  const answers: Map<number, KnownEntry>[] = [];
  for (const statement of statements) {
    const stored = await recogniseStatementLines(db, statement.identity, keysOf(statement.number));
    const known = new Map<number, KnownEntry>();
    for (const [index, earlier] of stored)
      known.set(index, { reason: earlier.reason, statementFileId: earlier.statementFileId });
    const earlierOfAccount = statements
      .slice(0, statement.number)
      .filter((before) => before.identity.accountIban === statement.identity.accountIban);
    // Only a file of several statements of one account compares its statements' keys with each other.
    const keys = earlierOfAccount.length === 0 ? [] : await allKeys(keysOf(statement.number));
    for (const before of earlierOfAccount) {
      const beforeKnown = answers[before.number]!;
      const same = sameStatement(statement.identity, before.identity);
      const beforeKeys = await allKeys(keysOf(before.number));
      const freshKeys = new Set(beforeKeys.filter((_, index) => !beforeKnown.has(index)));
      keys.forEach((key, index) => {
        if (known.has(index)) return;
        const reason: KnownReason | null = same
          ? 'SAME_STATEMENT'
          : freshKeys.has(key)
            ? recognisedBy(
                statement.identity,
                before.identity,
                statement.lines.referenced[index] ? 'BANK_REFERENCE' : 'CONTENT',
              )
            : null;
        if (reason) known.set(index, { reason, statementFileId: null });
      });
    }
    answers.push(known);
  }
  return answers;
}

const allKeys = async (keys: StatementKeys) => hexKeysOf(await keys.piece(0, keys.count));

/** `keysOf` for statements planned with their keys (a file read on this thread, tests). */
export const plannedKeys =
  (statements: readonly PlannedStatement[]) =>
  (statement: number): StatementKeys =>
    packedKeysOf(statements[statement]!.keys);

import type { KnownLine, KnownLinesBody } from '../../contract/statement-import';
import { canonicalAccount, lineKeyRule } from '../../domain/statements/line-key';
import {
  type KnownReason,
  recognisedBy,
  type StatementIdentity,
} from '../../domain/statements/statement-identity';
import type { Queryable } from '../db/client';
import { nextTurn } from '../platform/next-turn';
import { DIGEST_BYTES, PackedKeys } from './packed-keys';
import { type IdentityRow, identityColumns, identityOf } from './statement-rows';

/**
 * Which lines of one statement were imported before, by which rule and from which file (issue 27,
 * docs/decisions/0121). One function for the preview's question (`POST …/known-lines`) and the import,
 * so the import skips exactly the lines the preview showed as known:
 *
 *   1. SAME_STATEMENT — the account's statement with the same bank statement id, sequence and period
 *      was imported: all its lines are;
 *   2. BANK_REFERENCE — a line with the same bank-reference key (account, reference, day, amount) in any
 *      statement of the account;
 *   3. SAME_CONTENT — a line with the same content key in a statement of the account whose period
 *      overlaps this one's.
 */

export interface Recognition {
  reason: KnownReason;
  statementFileId: string;
  fileName: string;
  importedAt: Date;
}

interface SourceRow {
  statement_file_id: string;
  file_name: string;
  imported_at: Date | string;
}

const sourceOf = (row: SourceRow, reason: KnownReason): Recognition => ({
  reason,
  statementFileId: row.statement_file_id,
  fileName: row.file_name,
  importedAt: new Date(row.imported_at),
});

/**
 * Keys asked per query: encoding 600,000 keys as one parameter held the event loop for a second
 * (decision 0139); pieces of this size take tens of milliseconds each, with a turn of the loop between
 * them (on PGlite the queries alone would not give one).
 */
const KEYS_PER_QUERY = 25_000;

/**
 * A statement's line keys (`statementLineKeys`), read a piece at a time from wherever they are held: a
 * big upload's stay in its reader's worker thread (decision 0144). A piece is the keys' SHA-256 digests,
 * 32 bytes each, one after the other (packed-keys.ts), and is asked about as they are: PostgreSQL hexes
 * them. As strings, twice 600,000 keys and their parameters were ~100 MiB of garbage on the API thread
 * before the first line was inserted (decision 0150).
 */
export interface StatementKeys {
  count: number;
  piece(start: number, end: number): Promise<Uint8Array>;
}

export const keysInMemory = (keys: readonly string[]): StatementKeys => ({
  count: keys.length,
  piece: async (start, end) => PackedKeys.digesting(keys.slice(start, end)),
});

/** Keys held packed (a statement planned on this thread), as `StatementKeys`. */
export const packedKeysOf = (keys: PackedKeys): StatementKeys => ({
  count: keys.count,
  piece: async (start, end) => keys.digestSlice(start, end),
});

/** A piece's keys, hexed: for the few comparisons made in memory (several statements of one account). */
export const hexKeysOf = (digests: Uint8Array): string[] =>
  Array.from({ length: digests.byteLength / DIGEST_BYTES }, (_, k) =>
    Buffer.from(digests.buffer, digests.byteOffset + k * DIGEST_BYTES, DIGEST_BYTES).toString('hex'),
  );

/** The recognised lines of a statement, by the index of their key, each with its rule and file. */
export async function recogniseStatementLines(
  db: Queryable,
  statement: StatementIdentity,
  keys: StatementKeys,
): Promise<Map<number, Recognition>> {
  const known = new Map<number, Recognition>();
  if (statement.statementId !== null) {
    const { rows } = await db.query<SourceRow>(
      `SELECT f.id AS statement_file_id, f.file_name, f.imported_at
         FROM bank_statements b JOIN statement_files f ON f.id = b.statement_file_id
        WHERE b.account_iban = $1 AND b.bank_statement_id = $2 AND b.sequence IS NOT DISTINCT FROM $3
          AND b.period_start = $4 AND b.period_end = $5
        ORDER BY f.imported_at, f.id LIMIT 1`,
      [
        statement.accountIban,
        statement.statementId,
        statement.sequence,
        statement.periodStart,
        statement.periodEnd,
      ],
    );
    if (rows[0]) {
      const source = sourceOf(rows[0], 'SAME_STATEMENT');
      for (let index = 0; index < keys.count; index++) known.set(index, source);
      return known;
    }
  }
  // A key's rows all come in its piece, in import order: the first that recognises it is its answer.
  for (let start = 0; start < keys.count; start += KEYS_PER_QUERY) {
    if (start > 0) await nextTurn();
    const digests = await keys.piece(start, start + KEYS_PER_QUERY);
    // Each key hexed from its digest, with its place in the piece (1-based) to answer by.
    const { rows } = await db.query<SourceRow & IdentityRow & { at: string; bank_reference: string | null }>(
      `SELECT asked.at, l.bank_reference, ${identityColumns('b')},
              f.id AS statement_file_id, f.file_name, f.imported_at
         FROM unnest(ARRAY(SELECT encode(substring($1::bytea FROM k * ${DIGEST_BYTES} + 1 FOR ${DIGEST_BYTES}), 'hex')
                             FROM generate_series(0, length($1::bytea) / ${DIGEST_BYTES} - 1) AS k ORDER BY k))
              WITH ORDINALITY AS asked(key, at)
         JOIN statement_lines l ON l.dedup_key = asked.key
         JOIN bank_statements b ON b.statement_file_id = l.statement_file_id AND b.number = l.statement_number
         JOIN statement_files f ON f.id = l.statement_file_id
        WHERE b.account_iban = $2
        ORDER BY f.imported_at, f.id`,
      [digests, statement.accountIban],
    );
    for (const row of rows) {
      // A statement's keys are distinct (occurrences are numbered, `statementLineKeys`).
      const index = start + Number(row.at) - 1;
      if (known.has(index)) continue;
      const earlier = identityOf(statement.accountIban, row);
      const reason = recognisedBy(statement, earlier, lineKeyRule({ bankReference: row.bank_reference }));
      if (reason) known.set(index, sourceOf(row, reason));
    }
  }
  return known;
}

/** The preview's question for one statement: its known lines, in key order. */
export async function knownLines(db: Queryable, body: KnownLinesBody): Promise<KnownLine[]> {
  const statement: StatementIdentity = {
    accountIban: canonicalAccount(body.accountIban),
    statementId: body.statementId,
    sequence: body.sequence,
    periodStart: body.periodStart,
    periodEnd: body.periodEnd,
    openingBalanceCents: body.openingBalanceCents ?? null,
    closingBalanceCents: body.closingBalanceCents ?? null,
  };
  const known = await recogniseStatementLines(db, statement, keysInMemory(body.keys));
  return [...known]
    .map(([index, recognition]) => [body.keys[index]!, recognition] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, { importedAt, ...source }]) => ({ key, ...source, importedAt: importedAt.toISOString() }));
}

import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type {
  StatementImportJob,
  StatementImportQuery,
  StatementImportResult,
} from '../../contract/statement-import';
import type { ParseResult, StatementEntry, StatementFormat } from '../../domain/statements/types';
import type { Database, Queryable } from '../db/client';
import { errorClassOf } from '../db/client';
import type { FileStorage } from '../platform/files/storage';
import { sha256Of } from '../platform/files/storage';
import { storeFile } from '../platform/files/store';
import { type IdempotentRequest, previousAnswer, storeAnswer } from '../platform/idempotency';
import { type Actor, mutation } from '../platform/mutation';
import { nextTurn } from '../platform/next-turn';
import { orderedIds } from '../platform/ordered-ids';
import { Refusal, refuse } from '../platform/refusal';
import {
  failAbandonedImports,
  failImportJob,
  findImportJob,
  finishImportJob,
  type ImportProgress,
  insertImportJob,
  storeProgress,
} from './import-jobs';
import {
  checkedAccount,
  type KnownEntry,
  mismatchOf,
  type PlannedStatement,
  recogniseFile,
} from './import-plan';
import { type LineState, stateOf } from './line-state';
import { matchNewLines, type NewStatementLine, writeNewLineMatches } from './matching';
import { readUpload, StatementSlot } from './statement-reader';

/**
 * Importing a statement (issue 12, docs/decisions/0097). The upload is judged at once — readable, what
 * the preview saw, not a file imported before, something new in it — and answered with a job; the job
 * then writes the stored file, the statement, its new lines, the matching and its consequences, the
 * audit row and the job's result in ONE transaction. A process killed mid-import leaves only a RUNNING
 * job, which the sweep fails once its lease runs out; the same upload afterwards imports everything.
 */

/** A claim lasts this long without a heartbeat; the heartbeat (with the progress) comes every second. */
export const IMPORT_LEASE_MS = 10_000;
const HEARTBEAT_MS = 1_000;
/** Lines per INSERT: a handful of round trips for 100,000 lines, each a progress step. */
const LINES_PER_INSERT = 5_000;
/** Statements are imported one at a time, so two overlapping files never match one counterpart twice. */
const IMPORT_LOCK = 'statement-import';

const FORMAT_COLUMN: Record<StatementFormat, string> = { csv: 'CSV', camt053: 'CAMT053', mt940: 'MT940' };
const CONTENT_TYPE: Record<StatementFormat, string> = {
  csv: 'text/csv',
  camt053: 'application/xml',
  mt940: 'text/plain',
};

export interface StatementImports {
  readonly instanceId: string;
  start(actor: Actor, upload: StatementUpload): Promise<StatementImportJob>;
  job(id: string, at: Date): Promise<StatementImportJob | null>;
  /** Resolves when every import this instance started has finished (tests, shutdown). */
  settled(): Promise<void>;
}

export interface StatementUpload {
  bytes: Uint8Array;
  query: StatementImportQuery;
  idempotency: Omit<IdempotentRequest, 'sha256'> | null;
}

/** What the server read from the bytes: the preview's parse, done again here with the same code. */
interface ReadStatement {
  bytes: Uint8Array;
  parsed: ParseResult;
  statements: PlannedStatement[];
  sha256: string;
  lineCount: number;
  /** The admin's reason for importing statements whose balances do not add up. */
  mismatchNote: string | null;
}

const sum = (entries: readonly StatementEntry[]) => entries.reduce((total, e) => total + e.amountCents, 0);

export function createStatementImports(deps: {
  db: Database;
  storage: FileStorage;
  clock?: () => Date;
}): StatementImports {
  const { db, storage } = deps;
  const clock = deps.clock ?? (() => new Date());
  const instanceId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const running = new Map<string, { progress: ImportProgress; finished: Promise<void> }>();
  // One statement read and held in memory per instance at a time, from its parse to its import's end.
  const slot = new StatementSlot();
  const sweep = (at: Date) =>
    failAbandonedImports(db, { at, runnerId: instanceId, singleProcess: db.kind === 'pglite' });

  async function read(upload: StatementUpload): Promise<ReadStatement> {
    const { query } = upload;
    const chosenAccount = query.accountIban === undefined ? null : checkedAccount(query.accountIban);
    const { parsed, planning } = await readUpload(upload.bytes, query.mapping, chosenAccount);
    if (parsed.entries.length === 0) throw refuse('STATEMENT_UNREADABLE');
    // A line the parser could not read would be a euro nobody sees: the admin fixes the mapping first.
    // Balances that do not add up are the admin's decision instead (below).
    if (parsed.errors.some((error) => error.code !== 'BALANCE_MISMATCH'))
      throw refuse('STATEMENT_HAS_ERRORS');
    if (parsed.entries.length !== query.expectedLines || sum(parsed.entries) !== query.expectedTotalCents)
      throw refuse('STATEMENT_PREVIEW_MISMATCH');
    if ('refused' in planning) throw refuse(planning.refused.code);
    const { statements } = planning;
    const mismatched = statements.filter((statement) => statement.balance?.consistent === false);
    if (mismatched.length > 0 && query.mismatchNote === undefined)
      throw refuse('STATEMENT_BALANCE_MISMATCH', { extra: { statements: mismatched.map(mismatchOf) } });
    // A note is kept only where there is a mismatch to explain.
    const mismatchNote = mismatched.length > 0 ? query.mismatchNote! : null;
    const sha256 = sha256Of(upload.bytes);
    const importedBefore = async () =>
      (await db.query('SELECT 1 FROM statement_files WHERE sha256 = $1', [sha256])).rows.length > 0;
    if (await importedBefore()) throw refuse('STATEMENT_ALREADY_IMPORTED');
    const known = await recogniseFile(db, statements);
    const knownCount = known.reduce((total, lines) => total + lines.size, 0);
    const lineCount = statements.reduce((total, statement) => total + statement.keys.length, 0);
    // The same bytes imported meanwhile (by a simultaneous upload) are "already imported", not "nothing new".
    if (knownCount === lineCount)
      throw refuse((await importedBefore()) ? 'STATEMENT_ALREADY_IMPORTED' : 'STATEMENT_NOTHING_NEW');
    return { bytes: upload.bytes, parsed, statements, sha256, lineCount, mismatchNote };
  }

  async function run(
    job: StatementImportJob,
    actor: Actor,
    upload: StatementUpload,
    statement: ReadStatement,
  ) {
    const progress: ImportProgress = { phase: 'waiting', done: 0, total: statement.lineCount };
    let resolveFinished!: () => void;
    running.set(job.id, { progress, finished: new Promise((resolve) => (resolveFinished = resolve)) });
    // PGlite is one connection: a heartbeat would wait behind the import's own transaction.
    const heartbeat =
      db.kind === 'postgres'
        ? setInterval(() => {
            const lease = new Date(clock().getTime() + IMPORT_LEASE_MS);
            storeProgress(db, job.id, instanceId, progress, lease).catch(() => undefined);
          }, HEARTBEAT_MS)
        : undefined;
    try {
      await mutation(
        db,
        actor,
        { action: 'statement.imported', entityType: 'statement_file' },
        async (tx) => {
          await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [IMPORT_LOCK]);
          progress.phase = 'importing';
          const result = await importStatement(
            tx,
            storage,
            actor,
            upload.query.fileName,
            statement,
            progress,
          );
          await finishImportJob(tx, job.id, instanceId, result, clock());
          return {
            result,
            entityId: result.statementFileId,
            after: {
              fileName: upload.query.fileName,
              ...result,
              ...(statement.mismatchNote !== null && { mismatchNote: statement.mismatchNote }),
            },
          };
        },
      );
    } catch (error) {
      const code = error instanceof Refusal ? error.code : 'STATEMENT_IMPORT_FAILED';
      // The error's class and code only: a database error carries the INSERT and its parameters, the
      // statement's descriptions, names and IBANs (decision 0122).
      if (!(error instanceof Refusal))
        console.error(`statement import ${job.id} failed: ${errorClassOf(error)}`);
      await failImportJob(db, job.id, instanceId, code, clock()).catch(() => undefined);
    } finally {
      clearInterval(heartbeat);
      running.delete(job.id);
      resolveFinished();
    }
  }

  return {
    instanceId,
    async start(actor, upload) {
      // A retry of an answered request answers the same job, even once that job has imported the file.
      if (upload.idempotency) {
        const request = { ...upload.idempotency, sha256: requestSha(upload) };
        const previous = await db.transaction((tx) => previousAnswer<StatementImportJob>(tx, request));
        if (previous) return (await findImportJob(db, previous.id)) ?? previous;
      }
      // Read inside this instance's slot, which the import releases when it ends (decision 0122).
      const release = await slot.take();
      let handedOver = false;
      try {
        const statement = await read(upload);
        await sweep(actor.at);
        const job = await db.transaction(async (tx) => {
          const request = upload.idempotency && { ...upload.idempotency, sha256: requestSha(upload) };
          const previous = request && (await previousAnswer<StatementImportJob>(tx, request));
          if (previous) return { job: previous, fresh: false };
          const created = await insertImportJob(tx, {
            requestedBy: actor.userId,
            fileName: upload.query.fileName,
            sha256: statement.sha256,
            total: statement.lineCount,
            runnerId: instanceId,
            leaseExpiresAt: new Date(clock().getTime() + IMPORT_LEASE_MS),
            at: actor.at,
          });
          if (request) await storeAnswer(tx, request, created);
          return { job: created, fresh: true };
        });
        if (job.fresh) {
          handedOver = true;
          void run(job.job, actor, upload, statement).finally(release);
        }
        return job.job;
      } finally {
        if (!handedOver) release();
      }
    },
    async job(id, at) {
      const local = running.get(id);
      if (!local) await sweep(at);
      const job = await findImportJob(db, id);
      // This instance runs it: its progress is fresher than the last heartbeat's.
      return job && local && job.status === 'RUNNING' ? { ...job, ...local.progress } : job;
    },
    async settled() {
      await Promise.all([...running.values()].map((job) => job.finished));
    },
  };
}

/** The request an Idempotency-Key stands for: the same bytes with the same mapping and expectations. */
function requestSha(upload: StatementUpload): string {
  return sha256Of(Buffer.concat([Buffer.from(JSON.stringify(upload.query)), Buffer.from([0]), upload.bytes]));
}

/** The stored file, its statements and their new lines; answers the counts before matching. */
async function importStatement(
  tx: Queryable,
  storage: FileStorage,
  actor: Actor,
  fileName: string,
  statement: ReadStatement,
  progress: ImportProgress,
): Promise<StatementImportResult> {
  const { parsed, statements, sha256 } = statement;
  const fileId = await storeFile(tx, storage, {
    content: statement.bytes,
    originalName: fileName,
    contentType: CONTENT_TYPE[parsed.format],
    inTransaction: true,
  });
  const checked = statements.filter((s) => s.balance !== null);
  const inserted = await tx.query<{ id: string }>(
    `INSERT INTO statement_files (file_id, file_name, format, sha256, account_iban, opening_balance_cents,
        closing_balance_cents, entry_count, balance_consistent, uploaded_by, imported_at)
     VALUES ($1, $11, $2, $3, $4, $5, $6, $7, $8, $9, $10)
     ON CONFLICT (sha256) DO NOTHING
     RETURNING id`,
    [
      fileId,
      FORMAT_COLUMN[parsed.format],
      sha256,
      statements[0]!.identity.accountIban,
      parsed.balance?.opening ?? null,
      parsed.balance?.closing ?? null,
      parsed.entries.length,
      checked.length === 0 ? null : checked.every((s) => s.balance!.consistent),
      actor.userId,
      actor.at,
      fileName,
    ],
  );
  if (!inserted.rows[0]) throw refuse('STATEMENT_ALREADY_IMPORTED');
  const statementFileId = inserted.rows[0].id;

  // Imports hold one lock, so the lines known now stay known until this one commits: an overlapping
  // statement's lines (or those of an import that committed while this one waited) are skipped here,
  // whatever the preview said.
  const known = await recogniseFile(tx, statements);
  const lines = await freshLinesInDateOrder(statements, known);
  if (lines.length === 0) throw refuse('STATEMENT_NOTHING_NEW');
  for (const [n, s] of statements.entries())
    await insertBankStatement(tx, statementFileId, s, known[n]!, statement.mismatchNote);

  // The matcher decides first, so each line is inserted once in its final state (decision 0097).
  progress.phase = 'matching';
  const changes = await matchNewLines(tx, statementFileId, lines);
  const decided = new Map(changes.map((change) => [change.line.id, change.next]));
  progress.phase = 'importing';
  await insertLinesPipelined(tx, statementFileId, actor.at, lines, decided, progress);
  progress.phase = 'matching';
  const matching = await writeNewLineMatches(tx, statementFileId, lines.length, changes, actor);
  const duplicatesSkipped = statement.lineCount - lines.length;
  await tx.query('UPDATE statement_files SET line_count = $2, duplicates_skipped = $3 WHERE id = $1', [
    statementFileId,
    lines.length,
    duplicatesSkipped,
  ]);
  return {
    statementFileId,
    newLines: lines.length,
    duplicatesSkipped,
    statements: statements.length,
    skipped: parsed.skipped.length,
    ...matching,
  };
}

/** Lines built between two turns of the event loop: a few milliseconds each, so requests are answered. */
const LINES_PER_TURN = 20_000;
/** Columns of a batch's INSERT built between two turns of the event loop. */
const COLUMNS_PER_TURN = 5;

/**
 * The lines not known before, as they will be inserted: by booking date (then file order), with ids
 * increasing in that order, so the primary key and the indexes that lead with the date grow at their
 * edges whatever order the bank wrote the file in (newest first, or interleaved) instead of each line
 * landing on another page (decisions 0112, 0118). Grouped by day rather than sorted (a statement has a
 * few hundred days at most), and built in slices with a turn of the event loop between them: at
 * 600,000 lines the sort and the objects held the loop for over a second (decision 0139).
 */
async function freshLinesInDateOrder(
  statements: readonly PlannedStatement[],
  known: readonly ReadonlyMap<number, KnownEntry>[],
): Promise<InsertedLine[]> {
  const byDay = new Map<string, { statements: number[]; indexes: number[] }>();
  let count = 0;
  for (const [n, s] of statements.entries())
    for (let index = 0; index < s.entries.length; index++) {
      if (known[n]!.has(index)) continue;
      const day = s.entries[index]!.bookingDate;
      let ofDay = byDay.get(day);
      if (!ofDay) {
        ofDay = { statements: [], indexes: [] };
        byDay.set(day, ofDay);
      }
      ofDay.statements.push(n);
      ofDay.indexes.push(index);
      if (++count % LINES_PER_TURN === 0) await nextTurn();
    }
  const now = Date.now();
  const lines: InsertedLine[] = new Array(count);
  let ids: string[] = [];
  let n = 0;
  for (const day of [...byDay.keys()].sort()) {
    const ofDay = byDay.get(day)!;
    for (let k = 0; k < ofDay.indexes.length; k++, n++) {
      if (n % LINES_PER_TURN === 0) {
        if (n > 0) await nextTurn();
        ids = orderedIds(Math.min(LINES_PER_TURN, count - n), now, n);
      }
      const s = statements[ofDay.statements[k]!]!;
      const index = ofDay.indexes[k]!;
      lines[n] = newLine(ids[n % LINES_PER_TURN]!, s.entries[index]!, s.keys[index]!, s.number);
    }
  }
  return lines;
}

/** One statement's row: its identity, balances, counts, the rule that recognised each skipped line. */
async function insertBankStatement(
  tx: Queryable,
  statementFileId: string,
  statement: PlannedStatement,
  known: ReadonlyMap<number, KnownEntry>,
  mismatchNote: string | null,
): Promise<void> {
  const { identity, balance } = statement;
  const skippedLines = [...known].map(([index, entry]) => ({
    line: statement.entries[index]!.lineNumber,
    reason: entry.reason,
    statementFileId: entry.statementFileId ?? statementFileId,
  }));
  await tx.query(
    `INSERT INTO bank_statements (statement_file_id, number, account_iban, currency, bank_statement_id, sequence,
        period_start, period_end, opening_balance_cents, closing_balance_cents, balance_consistent, entry_count,
        line_count, duplicates_skipped, pending_skipped, skipped_lines, mismatch_note)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16::jsonb, $17)`,
    [
      statementFileId,
      statement.number,
      identity.accountIban,
      statement.currency,
      identity.statementId,
      identity.sequence,
      identity.periodStart,
      identity.periodEnd,
      identity.openingBalanceCents,
      identity.closingBalanceCents,
      balance?.consistent ?? null,
      statement.entries.length,
      statement.entries.length - known.size,
      known.size,
      statement.pending,
      JSON.stringify(skippedLines),
      balance?.consistent === false ? mismatchNote : null,
    ],
  );
}

/**
 * The lines in batches of LINES_PER_INSERT, each batch's arrays built while the one before executes
 * (decision 0109): the connection runs one query at a time, but building 5,000 lines' arrays is the
 * server's CPU and the INSERT is PostgreSQL's, so on two cores they overlap. At most two batches are
 * in flight, so the arrays of all lines never exist at once. A failed batch fails the ones queued
 * behind it (the transaction is aborted) and the first failure is the one thrown.
 */
async function insertLinesPipelined(
  tx: Queryable,
  statementFileId: string,
  at: Date,
  lines: readonly InsertedLine[],
  states: ReadonlyMap<string, LineState>,
  progress: ImportProgress,
): Promise<void> {
  let previous: Promise<void> = Promise.resolve();
  for (let start = 0; start < lines.length; start += LINES_PER_INSERT) {
    const end = Math.min(lines.length, start + LINES_PER_INSERT);
    const batch = insertLines(tx, statementFileId, at, lines.slice(start, end), states).then(() => {
      progress.done = end;
    });
    // Awaited below (or as the next one's previous); until then a rejection must not count as unhandled.
    batch.catch(() => undefined);
    await previous;
    previous = batch;
  }
  await previous;
}

/** A parsed entry as the line it will be, with the id the matcher's links refer to. */
const newLine = (
  id: string,
  entry: StatementEntry,
  key: string,
  statementNumber: number,
): NewStatementLine & { dedup_key: string; currency: string; statement_number: number } => ({
  id,
  statement_number: statementNumber,
  dedup_key: key,
  line_number: entry.lineNumber,
  bank_amount_cents: entry.amountCents,
  bank_date: entry.bookingDate,
  value_date: entry.valueDate,
  currency: entry.currency,
  description: entry.description,
  counterparty_name: entry.counterpartyName,
  counterparty_iban: entry.counterpartyIban,
  end_to_end_id: entry.endToEndId,
  batch_id: entry.batchId,
  bank_reference: entry.bankReference,
  kind: entry.kind,
  return_reason: entry.returnReason,
});

type InsertedLine = ReturnType<typeof newLine>;
type LineCell = string | number | null;

const LINE_COLUMNS: [
  column: string,
  type: string,
  cell: (line: InsertedLine, state?: LineState) => LineCell,
][] = [
  ['id', 'uuid', (l) => l.id],
  ['statement_number', 'smallint', (l) => l.statement_number],
  ['line_number', 'int', (l) => l.line_number],
  ['dedup_key', 'text', (l) => l.dedup_key],
  ['bank_amount_cents', 'bigint', (l) => l.bank_amount_cents],
  ['bank_date', 'date', (l) => l.bank_date],
  ['value_date', 'date', (l) => l.value_date],
  ['currency', 'text', (l) => l.currency],
  ['description', 'text', (l) => l.description],
  ['counterparty_name', 'text', (l) => l.counterparty_name],
  ['counterparty_iban', 'text', (l) => l.counterparty_iban],
  ['end_to_end_id', 'text', (l) => l.end_to_end_id],
  ['batch_id', 'text', (l) => l.batch_id],
  ['bank_reference', 'text', (l) => l.bank_reference],
  ['kind', 'text', (l) => l.kind],
  ['return_reason', 'text', (l) => l.return_reason],
  ['status', 'text', (_, state) => state?.status ?? 'UNMATCHED'],
  ['match_method', 'text', (_, state) => state?.matchMethod ?? null],
  ['difference_cents', 'bigint', (_, state) => state?.differenceCents ?? null],
  // The matcher's decision, shown as its entry in the line's history (decision 0115).
  ['import_decision', 'jsonb', (_, state) => (state ? JSON.stringify(stateOf(state)) : null)],
];

/**
 * A `text[]` literal written here rather than by the driver when it sends the query: built before the
 * previous batch has finished, it is CPU the pipelined insert overlaps with PostgreSQL's (decision 0109).
 */
const nullableTextArray = (cells: readonly LineCell[]): string =>
  `{${cells.map((cell) => (cell === null ? 'NULL' : `"${String(cell).replace(/["\\]/g, '\\$&')}"`)).join(',')}}`;

/**
 * One INSERT of up to LINES_PER_INSERT lines in the states the matcher decided (every value as text,
 * cast in SQL, as the seed's bulk insert does, so both drivers send the same array literals). No
 * conflict is expected: the lines known before were left out under the import lock, so a duplicate key here is a
 * fault and fails the import. A line's import is not a row of its history: the file says who imported
 * it and when (statement_files.uploaded_by, imported_at; decision 0097), the line what the matcher
 * decided (`import_decision`, decision 0115).
 */
async function insertLines(
  tx: Queryable,
  statementFileId: string,
  at: Date,
  lines: readonly InsertedLine[],
  states: ReadonlyMap<string, LineState>,
): Promise<void> {
  const decided = lines.map((line) => states.get(line.id));
  const columns: string[] = [];
  for (const [, , cell] of LINE_COLUMNS) {
    // A turn of the event loop between columns: a batch's twenty arrays are ~100 ms of CPU on a busy core.
    if (columns.length % COLUMNS_PER_TURN === 0) await nextTurn();
    columns.push(nullableTextArray(lines.map((line, n) => cell(line, decided[n]))));
  }
  const names = LINE_COLUMNS.map(([name]) => name).join(', ');
  const casts = LINE_COLUMNS.map(([, type], i) => `c${i}::${type}`).join(', ');
  const arrays = LINE_COLUMNS.map((_, i) => `$${i + 3}::text[]`).join(', ');
  const aliases = LINE_COLUMNS.map((_, i) => `c${i}`).join(', ');
  await tx.query(
    `INSERT INTO statement_lines (statement_file_id, imported_at, updated_at, ${names})
     SELECT $1::uuid, $2::timestamptz, $2::timestamptz, ${casts} FROM unnest(${arrays}) AS t(${aliases})`,
    [statementFileId, at, ...columns],
  );
}

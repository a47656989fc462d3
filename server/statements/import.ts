import { createHash, randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type {
  StatementImportJob,
  StatementImportQuery,
  StatementImportResult,
} from '../../contract/statement-import';
import type { StatementFormat } from '../../domain/statements/types';
import type { Database, Queryable } from '../db/client';
import { errorClassOf } from '../db/client';
import type { FileStorage } from '../platform/files/storage';
import { sha256Of } from '../platform/files/storage';
import { storeFile } from '../platform/files/store';
import { type IdempotentRequest, previousAnswer, storeAnswer } from '../platform/idempotency';
import { type Actor, mutation } from '../platform/mutation';
import { Refusal, refuse } from '../platform/refusal';
import {
  failAbandonedImports,
  failImportJob,
  findImportJob,
  finishImportJob,
  type ImportProgress,
  insertImportJob,
  statementJobOf,
  storeProgress,
} from './import-jobs';
import { freshLineCount, insertStreamedLines } from './import-lines';
import { checkedAccount, type KnownEntry, mismatchOf, type PlannedLines, recogniseFile } from './import-plan';
import { matchInsertedLines, writeNewLineMatches } from './matching';
import {
  type HeldLines,
  type ParsedStatement,
  type PlannedReading,
  readUpload,
  StatementSlot,
} from './statement-reader';

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
/** Statements are imported one at a time, so two overlapping files never match one counterpart twice. */
const IMPORT_LOCK = 'statement-import';

const FORMAT_COLUMN: Record<StatementFormat, string> = { csv: 'CSV', camt053: 'CAMT053', mt940: 'MT940' };
const CONTENT_TYPE: Record<StatementFormat, string> = {
  csv: 'text/csv',
  camt053: 'application/xml',
  mt940: 'text/plain',
};

export interface StatementImports {
  /** The runner id of every import this instance runs, statements and sources (one sweep, decision 0152). */
  readonly instanceId: string;
  /** This instance's one place for an upload in memory, shared with the source imports (decision 0152). */
  readonly slot: StatementSlot;
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

/**
 * What the server read from the bytes: the preview's parse, done again here with the same code, its
 * entries held where they were read, which builds their rows a chunk at a time (decision 0144).
 */
interface ReadStatement {
  /** The upload's bytes, handed over once, to be stored (`handedOnce`). */
  takeBytes: () => Uint8Array;
  parsed: ParsedStatement;
  held: HeldLines;
  statements: PlannedLines[];
  sha256: string;
  lineCount: number;
  /** The admin's reason for importing statements whose balances do not add up. */
  mismatchNote: string | null;
}

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
    const { parsed, planning, held } = await readUpload(upload.bytes, query.mapping, chosenAccount);
    try {
      return await judge(upload, parsed, planning, held);
    } catch (error) {
      held.close();
      throw error;
    }
  }

  /** The upload's refusals, in the order they always had; the reading when none applies. */
  async function judge(
    upload: StatementUpload,
    parsed: ParsedStatement,
    planning: PlannedReading,
    held: HeldLines,
  ): Promise<ReadStatement> {
    const { query } = upload;
    if (parsed.entryCount === 0) throw refuse('STATEMENT_UNREADABLE');
    // A line the parser could not read would be a euro nobody sees: the admin fixes the mapping first.
    // Balances that do not add up are the admin's decision instead (below).
    if (parsed.errors.some((error) => error.code !== 'BALANCE_MISMATCH'))
      throw refuse('STATEMENT_HAS_ERRORS');
    if (parsed.entryCount !== query.expectedLines || parsed.entriesSumCents !== query.expectedTotalCents)
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
    const known = await recogniseFile(db, statements, held.keysOf);
    const knownCount = known.reduce((total, lines) => total + lines.size, 0);
    const lineCount = statements.reduce((total, statement) => total + statement.entryCount, 0);
    // The same bytes imported meanwhile (by a simultaneous upload) are "already imported", not "nothing new".
    if (knownCount === lineCount)
      throw refuse((await importedBefore()) ? 'STATEMENT_ALREADY_IMPORTED' : 'STATEMENT_NOTHING_NEW');
    return { takeBytes: handedOnce(upload.bytes), parsed, held, statements, sha256, lineCount, mismatchNote };
  }

  /** The job's import, its statement slot released at its end. */
  function runHandedOver(
    job: StatementImportJob,
    actor: Actor,
    fileName: string,
    statement: ReadStatement,
    release: () => void,
  ): void {
    void run(job, actor, fileName, statement).finally(() => {
      statement.held.close();
      release();
    });
  }

  async function run(job: StatementImportJob, actor: Actor, fileName: string, statement: ReadStatement) {
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
          const result = await importStatement(tx, storage, actor, fileName, statement, progress);
          await finishImportJob(tx, job.id, instanceId, result, clock());
          return {
            result,
            entityId: result.statementFileId,
            after: {
              fileName,
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
    slot,
    async start(actor, upload) {
      // A retry of an answered request answers the same job, even once that job has imported the file.
      if (upload.idempotency) {
        const request = { ...upload.idempotency, sha256: requestSha(upload) };
        const previous = await db.transaction((tx) => previousAnswer<StatementImportJob>(tx, request));
        if (previous) {
          const found = await findImportJob(db, previous.id);
          return found ? statementJobOf(found) : previous;
        }
      }
      // Read inside this instance's slot, which the import releases when it ends (decision 0122).
      const release = await slot.take();
      let handedOver = false;
      let reading: ReadStatement | undefined;
      try {
        const statement = await read(upload);
        reading = statement;
        await sweep(actor.at);
        const job = await db.transaction(async (tx) => {
          const request = upload.idempotency && { ...upload.idempotency, sha256: requestSha(upload) };
          const previous = request && (await previousAnswer<StatementImportJob>(tx, request));
          if (previous) return { job: previous, fresh: false };
          const created = statementJobOf(
            await insertImportJob(tx, {
              kind: 'STATEMENT',
              requestedBy: actor.userId,
              fileName: upload.query.fileName,
              sha256: statement.sha256,
              total: statement.lineCount,
              runnerId: instanceId,
              leaseExpiresAt: new Date(clock().getTime() + IMPORT_LEASE_MS),
              at: actor.at,
            }),
          );
          if (request) await storeAnswer(tx, request, created);
          return { job: created, fresh: true };
        });
        if (job.fresh) {
          handedOver = true;
          // Not a closure of this function's: those hold `upload`, and with it the bytes, until they end.
          runHandedOver(job.job, actor, upload.query.fileName, statement, release);
        }
        return job.job;
      } finally {
        if (!handedOver) {
          reading?.held.close();
          release();
        }
      }
    },
    async job(id, at) {
      const local = running.get(id);
      if (!local) await sweep(at);
      const found = await findImportJob(db, id);
      const job = found && statementJobOf(found);
      // This instance runs it: its progress is fresher than the last heartbeat's.
      return job && local && job.status === 'RUNNING'
        ? statementJobOf({ ...found!, ...local.progress })
        : job;
    },
    async settled() {
      await Promise.all([...running.values()].map((job) => job.finished));
    },
  };
}

/** The request an Idempotency-Key stands for: the same bytes with the same mapping and expectations. */
function requestSha(upload: StatementUpload): string {
  // Hashed in pieces: not a second copy of the upload.
  return createHash('sha256')
    .update(JSON.stringify(upload.query))
    .update(new Uint8Array([0]))
    .update(upload.bytes)
    .digest('hex');
}

/**
 * The upload's bytes for the one place that needs them after the 202, the stored file, and not held
 * after: a 37 MiB body otherwise stayed for the whole import, its lines' inserts included (decision 0150).
 */
function handedOnce(bytes: Uint8Array): () => Uint8Array {
  let held: Uint8Array | null = bytes;
  return () => {
    if (held === null) throw new Error('the upload was handed over already');
    const taken = held;
    held = null;
    return taken;
  };
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
    content: statement.takeBytes(),
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
      parsed.entryCount,
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
  const known = await recogniseFile(tx, statements, statement.held.keysOf);
  const newLines = freshLineCount(statements, known);
  if (newLines === 0) throw refuse('STATEMENT_NOTHING_NEW');
  for (const [n, s] of statements.entries())
    await insertBankStatement(tx, statementFileId, s, known[n]!, statement.mismatchNote);

  // Each chunk's lines inserted as it comes, UNMATCHED; the matcher decides after the last (decision 0144).
  const { asked } = await insertStreamedLines(
    tx,
    { statementFileId, at: actor.at },
    statements,
    known,
    statement.held,
    (done) => {
      progress.done = done;
    },
  );
  progress.phase = 'matching';
  const changes = await matchInsertedLines(tx, statementFileId, asked);
  const matching = await writeNewLineMatches(tx, statementFileId, newLines, changes, actor);
  const duplicatesSkipped = statement.lineCount - newLines;
  await tx.query('UPDATE statement_files SET line_count = $2, duplicates_skipped = $3 WHERE id = $1', [
    statementFileId,
    newLines,
    duplicatesSkipped,
  ]);
  return {
    statementFileId,
    newLines,
    duplicatesSkipped,
    statements: statements.length,
    skipped: parsed.skipped.length,
    ...matching,
  };
}

/** One statement's row: its identity, balances, counts, the rule that recognised each skipped line. */
async function insertBankStatement(
  tx: Queryable,
  statementFileId: string,
  statement: PlannedLines,
  known: ReadonlyMap<number, KnownEntry>,
  mismatchNote: string | null,
): Promise<void> {
  const { identity, balance } = statement;
  // In the file's order: the recognition answers in whatever order its query's plan reads the lines.
  const skippedLines = [...known]
    .map(([index, entry]) => ({
      line: statement.lines.lineNumbers[index]!,
      reason: entry.reason,
      statementFileId: entry.statementFileId ?? statementFileId,
    }))
    .sort((a, b) => a.line - b.line);
  const { entryCount } = statement;
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
      entryCount,
      entryCount - known.size,
      known.size,
      statement.pending,
      JSON.stringify(skippedLines),
      balance?.consistent === false ? mismatchNote : null,
    ],
  );
}

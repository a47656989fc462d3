import type { SourceImportJob, SourceImportQuery, SourceImportResult } from '../../contract/source-import';
import type { SourceKind } from '../../domain/sources/source-ids';
import type { Database, Queryable } from '../db/client';
import { errorClassOf } from '../db/client';
import type { FileStorage } from '../platform/files/storage';
import { sha256Of } from '../platform/files/storage';
import { storeFile } from '../platform/files/store';
import { type IdempotentRequest, previousAnswer, storeAnswer } from '../platform/idempotency';
import { type Actor, mutation } from '../platform/mutation';
import { Refusal, refuse } from '../platform/refusal';
import type { StatementImports } from '../statements/import';
import {
  failAbandonedImports,
  failImportJob,
  findImportJob,
  finishImportJob,
  type ImportJob,
  type ImportProgress,
  insertImportJob,
  storeProgress,
} from '../statements/import-jobs';
import { knownSourceIds } from './known-rows';
import { linkSourceFile } from './links';
import { markStripeFileChecked, payoutAmountMismatch } from './payout-amounts';
import { keepingPayoutsFigureOnce } from './payouts-kept-figure';
import { type SaftSchemaRun, schemaRefusal } from './saft-schema-run';
import { readSource } from './source-reader';
import type { SourceReading } from './source-reading';
import { type InsertedCounts, insertDocuments, insertPayoutRows, insertStatedPayouts } from './source-rows';

/**
 * Importing a payouts report or a SAF-T file (issue 31, decision 0152), as a statement is imported
 * (server/statements/import.ts, decision 0097): judged at once — readable as its kind, what the preview
 * saw, not a file imported before, something new in it — and answered with a job of the statement
 * imports' table; the job then writes the stored file, its new rows, their links and the audit row in
 * ONE transaction. Jobs, leases, the sweep and the one upload slot are the statement imports' own.
 */

const IMPORT_LEASE_MS = 10_000;
const HEARTBEAT_MS = 1_000;
/**
 * Source imports run one at a time: two overlapping files never insert one row twice. Migration 0056's
 * triggers take it shared by this name (SQL cannot import it): no other writer of payout rows or invoices
 * runs beside an import (decision 0167).
 */
export const IMPORT_LOCK = 'source-import';
/** An import of this many rows refreshes its table's statistics before linking them. */
const ANALYZE_FROM_ROWS = 10_000;
/**
 * A SAF-T of up to this much XML has its schema verdict awaited before the 202 (about a second beside the
 * read); a bigger one's is awaited by its job (decision 0163). `SAFT_SCHEMA_BEFORE_ACCEPT_MAX_BYTES`.
 */
export const SAFT_SCHEMA_BEFORE_ACCEPT_MAX_BYTES = 32 * 1_048_576;

const CONTENT_TYPE: Record<string, string> = {
  xml: 'application/xml',
  gzip: 'application/gzip',
  zip: 'application/zip',
  csv: 'text/csv',
};

export interface SourceUpload {
  bytes: Uint8Array;
  query: SourceImportQuery;
  idempotency: Omit<IdempotentRequest, 'sha256'> | null;
}

export interface SourceImports {
  start(actor: Actor, upload: SourceUpload): Promise<SourceImportJob>;
  job(id: string, at: Date): Promise<SourceImportJob | null>;
  /** Resolves when every import this instance started has finished (tests, shutdown). */
  settled(): Promise<void>;
}

interface Judged {
  reading: SourceReading;
  sha256: string;
  /** A big SAF-T's check against the official XSD, still running: its job awaits the verdict before committing. */
  schema: SaftSchemaRun | null;
}

/** A source import's job as its API answers it: a job failed on the schema with the schema's complaints. */
function sourceJobOf({ errorFacts, ...job }: ImportJob): SourceImportJob {
  const schemaErrors = errorFacts?.schemaErrors;
  return (Array.isArray(schemaErrors) ? { ...job, schemaErrors } : job) as SourceImportJob;
}

/** A running job's progress: while it waits for its schema's verdict, `checking` and the invoices checked. */
function progressOf(local: { progress: ImportProgress; checking: SaftSchemaRun | null }): ImportProgress {
  const { progress, checking } = local;
  if (!checking) return progress;
  return {
    phase: 'checking',
    done: Math.min(checking.invoicesChecked(), progress.total),
    total: progress.total,
  };
}

export function createSourceImports(deps: {
  db: Database;
  storage: FileStorage;
  statementImports: Pick<StatementImports, 'instanceId' | 'slot'>;
  clock?: () => Date;
  /** `Config.saftSchemaBeforeAcceptMaxBytes`. */
  saftSchemaBeforeAcceptMaxBytes?: number;
}): SourceImports {
  const { db, storage } = deps;
  const schemaBeforeAcceptMaxBytes =
    deps.saftSchemaBeforeAcceptMaxBytes ?? SAFT_SCHEMA_BEFORE_ACCEPT_MAX_BYTES;
  const clock = deps.clock ?? (() => new Date());
  const { instanceId, slot } = deps.statementImports;
  const running = new Map<
    string,
    { progress: ImportProgress; checking: SaftSchemaRun | null; finished: Promise<void> }
  >();
  const sweep = (at: Date) =>
    failAbandonedImports(db, { at, runnerId: instanceId, singleProcess: db.kind === 'pglite' });

  async function judge(upload: SourceUpload): Promise<Judged> {
    const { query } = upload;
    const { reading, schema } = await readSource(query.kind, upload.bytes, query.mapping, {
      schemaBeforeAcceptMaxBytes,
    });
    // A verdict awaited before the 202 that could not check the file (decision 0170): never imported unchecked.
    if (query.kind === 'SAFT_INVOICES' && !schema && reading.summary.schemaChecked === false)
      throw refuse('SAFT_SCHEMA_UNCHECKABLE');
    try {
      return { ...(await judgeReading(upload, reading)), schema };
    } catch (error) {
      schema?.cancel();
      throw error;
    }
  }

  async function judgeReading(upload: SourceUpload, reading: SourceReading) {
    const { query } = upload;
    const { entries } = reading;
    if (entries.rows !== query.expectedRows || entries.totalCents !== query.expectedTotalCents)
      throw refuse('SOURCE_PREVIEW_MISMATCH', {
        extra: {
          expectedRows: query.expectedRows,
          foundRows: entries.rows,
          expectedTotalCents: query.expectedTotalCents,
          foundTotalCents: entries.totalCents,
        },
      });
    const sha256 = sha256Of(upload.bytes);
    const importedBefore = async () =>
      (await db.query('SELECT 1 FROM source_files WHERE sha256 = $1', [sha256])).rows.length > 0;
    if (await importedBefore()) throw refuse('SOURCE_ALREADY_IMPORTED');
    const known = await knownSourceIds(db, query.kind, entries.ids);
    if (known.size === entries.ids.length)
      throw refuse((await importedBefore()) ? 'SOURCE_ALREADY_IMPORTED' : 'SOURCE_NOTHING_NEW');
    const mismatch = await payoutAmountMismatch(db, reading, (id) => !known.has(id));
    if (mismatch) throw mismatch;
    return { reading, sha256 };
  }

  async function run(job: SourceImportJob, actor: Actor, upload: SourceUpload, judged: Judged) {
    const progress: ImportProgress = { phase: 'waiting', done: 0, total: judged.reading.entries.rows };
    let resolveFinished!: () => void;
    const local = {
      progress,
      // Answered as the phase `checking` while the job waits for it (before or inside its transaction).
      checking: db.kind === 'pglite' ? judged.schema : null,
      finished: new Promise<void>((resolve) => (resolveFinished = resolve)),
    };
    running.set(job.id, local);
    // PGlite is one connection: a heartbeat would wait behind the import's own transaction. The stored
    // progress is what this instance answers, `checking` included, so any instance answers the same.
    const heartbeat =
      db.kind === 'postgres'
        ? setInterval(() => {
            const lease = new Date(clock().getTime() + IMPORT_LEASE_MS);
            storeProgress(db, job.id, instanceId, progressOf(local), lease).catch(() => undefined);
          }, HEARTBEAT_MS)
        : undefined;
    try {
      /**
       * A big SAF-T's verdict against the official XSD (decision 0163): a file that fails it fails the job
       * and nothing commits. On PostgreSQL it is awaited after the rows are written, inside the transaction,
       * so the inserts run while the check finishes; PGlite is one connection, which the transaction would
       * hold for every other request while it waits, so there it is awaited before the transaction opens.
       */
      const schemaVerdict = async () => {
        if (!judged.schema) return;
        const check = await judged.schema.result;
        local.checking = null;
        // Never imported unchecked (decision 0170): a file the pieces cannot cut and too big to check whole.
        if (!check.checked) throw refuse('SAFT_SCHEMA_UNCHECKABLE');
        if (check.errors.length > 0) throw schemaRefusal(check.errors);
      };
      const schemaInTransaction = judged.schema !== null && db.kind === 'postgres';
      if (judged.schema) {
        if (!schemaInTransaction) await schemaVerdict();
        // Written with the file's row, which commits only once the verdict has passed.
        judged.reading.summary.schemaChecked = true;
      }
      await mutation(db, actor, { action: 'source.imported', entityType: 'source_file' }, async (tx) => {
        await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [IMPORT_LOCK]);
        progress.phase = 'importing';
        const result = await importSource(tx, storage, actor, upload, judged, progress);
        if (schemaInTransaction) {
          local.checking = judged.schema;
          await schemaVerdict();
        }
        await finishImportJob(tx, job.id, instanceId, result, clock());
        return {
          result,
          entityId: result.sourceFileId,
          // Written out, not spread: each field is one the audit screen has words for (audit-fields.test.ts).
          after: {
            kind: upload.query.kind,
            fileName: upload.query.fileName,
            sourceFileId: result.sourceFileId,
            newRows: result.newRows,
            duplicatesSkipped: result.duplicatesSkipped,
            payouts: result.payouts,
            documents: result.documents,
            creditNotes: result.creditNotes,
            cancelled: result.cancelled,
            linked: result.linked,
            unlinked: result.unlinked,
          },
        };
      });
    } catch (error) {
      // The statement imports' code: its words ("the import failed and nothing was written") fit both.
      const code = error instanceof Refusal ? error.code : 'STATEMENT_IMPORT_FAILED';
      // The error's class only: a database error carries the INSERT's parameters (names, tax ids).
      if (!(error instanceof Refusal))
        console.error(`source import ${job.id} failed: ${errorClassOf(error)}`);
      // A schema's complaints are kept with the job (`error_facts`), for whichever instance answers it.
      const facts =
        error instanceof Refusal && code === 'SAFT_SCHEMA_INVALID' ? (error.details.extra ?? null) : null;
      await failImportJob(db, job.id, instanceId, code, clock(), facts).catch(() => undefined);
    } finally {
      clearInterval(heartbeat);
      running.delete(job.id);
      resolveFinished();
    }
  }

  return {
    async start(actor, upload) {
      const request = upload.idempotency && { ...upload.idempotency, sha256: requestSha(upload) };
      // A retry of an answered request answers the same job, even once that job has imported the file.
      if (request) {
        const previous = await db.transaction((tx) => previousAnswer<SourceImportJob>(tx, request));
        if (previous) {
          const found = await findImportJob(db, previous.id, 'sources');
          return found ? sourceJobOf(found) : previous;
        }
      }
      // Read inside this instance's one upload slot (the statements' too), held until the import ends.
      const release = await slot.take();
      let handedOver = false;
      let judging: Judged | undefined;
      try {
        const judged = await judge(upload);
        judging = judged;
        await sweep(actor.at);
        const job = await db.transaction(async (tx) => {
          const previous = request && (await previousAnswer<SourceImportJob>(tx, request));
          if (previous) return { job: previous, fresh: false };
          const created = sourceJobOf(
            await insertImportJob(tx, {
              kind: upload.query.kind,
              requestedBy: actor.userId,
              fileName: upload.query.fileName,
              sha256: judged.sha256,
              total: judged.reading.entries.rows,
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
          void run(job.job, actor, upload, judged).finally(release);
        }
        return job.job;
      } finally {
        if (!handedOver) {
          judging?.schema?.cancel();
          release();
        }
      }
    },
    async job(id, at) {
      const local = running.get(id);
      if (!local) await sweep(at);
      const found = await findImportJob(db, id, 'sources');
      if (!found) return null;
      if (found.status !== 'RUNNING' || !local) return sourceJobOf(found);
      // This instance runs it: its progress is fresher than the last heartbeat's.
      return sourceJobOf({ ...found, ...progressOf(local) });
    },
    async settled() {
      await Promise.all([...running.values()].map((job) => job.finished));
    },
  };
}

/** The request an Idempotency-Key stands for: the same bytes with the same query. */
function requestSha(upload: SourceUpload): string {
  return sha256Of(Buffer.concat([Buffer.from(JSON.stringify(upload.query)), Buffer.from([0]), upload.bytes]));
}

/** The stored file, its row, its new rows and their links; answers the import's counts. */
async function importSource(
  tx: Queryable,
  storage: FileStorage,
  actor: Actor,
  upload: SourceUpload,
  { reading, sha256 }: Judged,
  progress: ImportProgress,
): Promise<SourceImportResult> {
  const { kind, fileName } = upload.query;
  const container = kind === 'SAFT_INVOICES' ? String(reading.summary.container) : 'csv';
  const fileId = await storeFile(tx, storage, {
    content: upload.bytes,
    originalName: fileName,
    contentType: CONTENT_TYPE[container] ?? 'application/octet-stream',
    inTransaction: true,
  });
  const { entries } = reading;
  const inserted = await tx.query<{ id: string }>(
    `INSERT INTO source_files (kind, file_id, file_name, sha256, row_count, new_rows, duplicates_skipped, total_cents,
        control_totals_checked, summary, imported_by, imported_at)
     VALUES ($1, $2, $3, $4, $5, 0, 0, $6, $7, $8::jsonb, $9, $10)
     ON CONFLICT (sha256) DO NOTHING
     RETURNING id`,
    [
      kind,
      fileId,
      fileName,
      sha256,
      entries.rows,
      entries.totalCents,
      reading.controlTotalsChecked,
      JSON.stringify(reading.summary),
      actor.userId,
      actor.at,
    ],
  );
  if (!inserted.rows[0]) throw refuse('SOURCE_ALREADY_IMPORTED');
  const sourceFileId = inserted.rows[0].id;

  // Imports hold one lock: the rows known now stay known until this one commits, whatever the preview said.
  const known = await knownSourceIds(tx, kind, entries.ids);
  const fresh = (id: string) => !known.has(id);
  const onProgress = (done: number) => {
    progress.done = done;
  };
  // The same check as before the job, now under the lock: a file imported meanwhile may have changed it.
  const mismatch = await payoutAmountMismatch(tx, reading, fresh);
  if (mismatch) throw mismatch;
  let counts: InsertedCounts;
  let links: { linked: number };
  if (kind === 'STRIPE_BALANCE_PAYOUTS') {
    // A stated payout is "linked" once checked against its rows; it has no settlement of its own, and no
    // rows: its settlements without invoice are its rows' (decision 0167), counted by the file that brings them.
    const stated = await insertStatedPayouts(tx, sourceFileId, reading, fresh);
    if (stated.newRows === 0) throw refuse('SOURCE_NOTHING_NEW');
    counts = stated;
    links = { linked: stated.checked };
  } else {
    // Its payouts' settlements without invoice counted once, after its rows and links (decision 0167).
    ({ counts, links } = await keepingPayoutsFigureOnce(tx, sourceFileId, kind, async () => {
      const inserted = isPayoutKind(kind)
        ? await insertPayoutRows(tx, sourceFileId, kind, reading, fresh, onProgress)
        : await insertDocuments(tx, sourceFileId, reading, fresh, onProgress);
      if (inserted.newRows === 0) throw refuse('SOURCE_NOTHING_NEW');
      // The planner's statistics of a table that was empty would have the links join 100,000 documents
      // row by row (a credit note's invoice: 43 s, decision 0152): a big import counts its rows first.
      if (inserted.newRows >= ANALYZE_FROM_ROWS)
        await tx.query(isPayoutKind(kind) ? 'ANALYZE provider_payout_rows' : 'ANALYZE provider_invoices');
      progress.phase = 'linking';
      return { counts: inserted, links: await linkSourceFile(tx, sourceFileId, kind) };
    }));
  }
  if (kind === 'STRIPE_PAYOUTS' || kind === 'STRIPE_BALANCE_PAYOUTS')
    await markStripeFileChecked(tx, sourceFileId, reading);
  const duplicatesSkipped = entries.rows - counts.newRows;
  await tx.query('UPDATE source_files SET new_rows = $2, duplicates_skipped = $3 WHERE id = $1', [
    sourceFileId,
    counts.newRows,
    duplicatesSkipped,
  ]);
  return {
    sourceFileId,
    newRows: counts.newRows,
    duplicatesSkipped,
    payouts: counts.payouts,
    documents: counts.documents,
    creditNotes: counts.creditNotes,
    cancelled: reading.cancelled,
    linked: links.linked,
    unlinked: counts.newRows - links.linked,
  };
}

/** The kinds whose rows are a payout's balance transactions or payments (`provider_payout_rows`). */
export const isPayoutKind = (kind: SourceKind): kind is 'STRIPE_PAYOUTS' | 'COLLECTOR_PAYOUTS' =>
  kind === 'STRIPE_PAYOUTS' || kind === 'COLLECTOR_PAYOUTS';

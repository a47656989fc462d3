import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { ExportRow } from '../../domain/export-files';
import type { Database, Queryable } from '../db/client';
import { keysetTextBatches } from '../db/list';
import { describeError } from '../platform/describe-error';
import type { FileStorage } from '../platform/files/storage';
import { csvHead } from './csv-sql';
import { writeCsvCopy } from './csv-stream';
import { createExportFile, recordExportDone, releaseExportContent, removeLeftoverParts } from './export-file';
import { EXPORT_RETENTION_MS, type ExportJobRow } from './jobs';
import { csvRows, type ExportSource, exportSource, jsonRows, xlsxRows } from './sources';
import { WriterFailure, type WriterRun } from './writer';
import { writeXlsxCopy } from './xlsx-stream';

/**
 * Runs export jobs (docs/decisions/0077). Any instance may run any job: a job is claimed with
 * `FOR UPDATE SKIP LOCKED` and held under a lease the runner renews while it writes; progress and the
 * lease are stored in one statement, which is also how the runner learns that the job was cancelled
 * (or that it lost the lease): the statement then matches no row, and the runner stops and drops the
 * file. Jobs whose lease ran out — their instance died — are marked failed with INSTANCE_STOPPED.
 */
export interface ExportRunnerOptions {
  db: Database;
  /** Where finished files go, shared by the instances (the app's storage). */
  storage: FileStorage;
  /** Part files are written under `dataDir/exports` before they are stored. */
  dataDir: string;
  publicUrl: string;
  clock?: () => Date;
  /** Names this instance in `export_jobs.runner_id`. */
  instanceId?: string;
  /** How long a claim holds without a heartbeat. */
  leaseMs?: number;
  /** Rows read from the database per keyset batch (default: 10,000 for CSV, 5,000 for XLSX). */
  batchSize?: number;
  /** Progress is stored at least every this many rows (and at every heartbeat). */
  progressEveryRows?: number;
}

export const DEFAULT_LEASE_MS = 30_000;

export interface ExportRunner {
  readonly instanceId: string;
  /** Claims the oldest queued job for this instance, or null when none is free. */
  claim(): Promise<ExportJobRow | null>;
  /** Writes a claimed job's file to the end (or until it is cancelled or fails). */
  run(job: ExportJobRow): Promise<void>;
  /** Claims and runs one job; false when the queue was empty. */
  runNext(): Promise<boolean>;
  /** Marks jobs whose lease ran out failed (their instance stopped), answering how many. */
  recoverAbandoned(): Promise<number>;
  /** Removes this instance's part files whose job is no longer running, answering how many. */
  removeLeftoverParts(): Promise<number>;
  /** Removes files of exports older than the retention, and old rows (decision 0077). */
  sweepExpired(): Promise<number>;
  /** Polls the queue every `pollMs` until stopped; `wake` starts a round at once. */
  start(pollMs?: number): void;
  wake(): void;
  /** Stops polling; a job still running is marked failed (INSTANCE_STOPPED), its file dropped. */
  stop(): Promise<void>;
}

/**
 * The export's reads, each in a short transaction with PostgreSQL's JIT off: a batch's statement is
 * costed above `jit_above_cost`, and compiling it again for every batch cost more CPU than the whole
 * batch's formatting (bench/results/exports.md: 34,800 vs 11,300 rows/s on 200,000 rows).
 */
function withoutJit(db: Database): Queryable {
  return {
    query: (text, params) =>
      db.transaction(async (tx) => {
        await tx.query('SET LOCAL jit = off');
        return tx.query(text, params);
      }),
  };
}

/** Rows the XLSX writer reads as values to size the sheet's columns (`xlsxChunks` samples as many). */
const SAMPLE_ROWS = 100;

export function createExportRunner(options: ExportRunnerOptions): ExportRunner {
  const { db, storage, dataDir, publicUrl } = options;
  const clock = options.clock ?? (() => new Date());
  const instanceId = options.instanceId ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  // Batches are COPY's bytes, collected into a reader's two reused buffers (decisions 0090, 0105): ~3 MB
  // of CSV for 10,000 rows, ~6 MB of sheet XML for 5,000.
  const csvBatchSize = options.batchSize ?? 10_000;
  const xlsxBatchSize = options.batchSize ?? 5000;
  const progressEveryRows = options.progressEveryRows ?? 50_000;
  const leaseUntil = () => new Date(clock().getTime() + leaseMs);
  const reads = withoutJit(db);

  let timer: NodeJS.Timeout | null = null;
  let round: Promise<void> | null = null;
  let again = false;
  let stopping = false;
  let current: { stop(): Promise<void> } | null = null;

  async function claim(): Promise<ExportJobRow | null> {
    const { rows } = await db.query<ExportJobRow>(
      `UPDATE export_jobs SET status = 'running', runner_id = $1, lease_expires_at = $2,
              started_at = coalesce(started_at, $3)
        WHERE id = (SELECT id FROM export_jobs WHERE status = 'queued'
                     ORDER BY created_at, id LIMIT 1 FOR UPDATE SKIP LOCKED)
          AND status = 'queued'
        RETURNING *`,
      [instanceId, leaseUntil(), clock()],
    );
    return rows[0] ?? null;
  }

  /** Stores progress and renews the lease; false when the job is no longer this runner's to run. */
  async function heartbeat(id: string, rowsWritten: number): Promise<boolean> {
    const { rows } = await db.query(
      `UPDATE export_jobs SET rows_written = $3, lease_expires_at = $4
        WHERE id = $1 AND runner_id = $2 AND status = 'running' RETURNING id`,
      [id, instanceId, rowsWritten, leaseUntil()],
    );
    return rows.length === 1;
  }

  async function finishAs(
    on: Queryable,
    id: string,
    status: 'done' | 'failed',
    fields: { rows: number; ref?: string; sizeBytes?: number; reason?: string },
  ): Promise<boolean> {
    const { rows } = await on.query(
      `UPDATE export_jobs SET status = $3, rows_written = $4, file_ref = $5, size_bytes = $6, error_reason = $7,
              finished_at = $8, runner_id = NULL, lease_expires_at = NULL
        WHERE id = $1 AND runner_id = $2 AND status = 'running' RETURNING id`,
      [
        id,
        instanceId,
        status,
        fields.rows,
        fields.ref ?? null,
        fields.sizeBytes ?? null,
        fields.reason ?? null,
        clock(),
      ],
    );
    return rows.length === 1;
  }

  /**
   * Both formats through PostgreSQL's COPY: CSV's cells finished on bytes (decision 0090), XLSX's sheet
   * rows built by PostgreSQL and deflated by zlib (decision 0105).
   */
  function startWriter(
    job: ExportJobRow,
    source: ExportSource,
    store: (chunk: Uint8Array) => Promise<void>,
    progress: (rowsRead: number) => void,
  ): WriterRun {
    const headers = source.columns.map((c) => c.header[job.locale]);
    if (job.format === 'CSV')
      return writeCsvCopy(
        db,
        csvRows(source, job.locale),
        csvHead(headers, job.locale),
        csvBatchSize,
        store,
        progress,
      );
    const sample = async () => {
      const first = await keysetTextBatches(reads, jsonRows(source), SAMPLE_ROWS, 'row_json', ',').next();
      return first.done ? [] : (JSON.parse(`[${first.value.text.slice(0, -1)}]`) as ExportRow[]);
    };
    return writeXlsxCopy(
      db,
      xlsxRows(source),
      {
        columns: source.columns.map((c, i) => ({ key: c.key, kind: c.kind, header: headers[i]! })),
        sheetName: source.name[job.locale],
        sample,
      },
      xlsxBatchSize,
      store,
      progress,
    );
  }

  async function run(job: ExportJobRow): Promise<void> {
    const source = exportSource(job.type, job.filters, publicUrl, job.locale);
    const file = await createExportFile(dataDir, storage, job.id, job.format);
    let rowsRead = 0;
    let stored = 0;
    let beating: Promise<void> | null = null;
    let lost = !(await heartbeat(job.id, 0));
    const writer = startWriter(
      job,
      source,
      (chunk) => file.write(chunk),
      (rows) => {
        rowsRead = rows;
        if (rowsRead - stored >= progressEveryRows) beat();
      },
    );
    current = writer;
    function beat(): void {
      if (beating || lost) return;
      stored = rowsRead;
      beating = heartbeat(job.id, rowsRead)
        .then(async (mine) => {
          if (!mine) {
            lost = true;
            await writer.stop();
          }
        })
        .catch((error: unknown) =>
          console.warn(`export ${job.id}: heartbeat failed: ${describeError(error)}`),
        )
        .finally(() => {
          beating = null;
        });
    }
    const renew = setInterval(beat, Math.max(50, Math.floor(leaseMs / 3)));
    if (lost) await writer.stop();
    try {
      const rows = await writer.done;
      await beating;
      const { ref, sizeBytes } = await file.finish();
      const recorded = await recordExportDone(db, ref, (tx) =>
        finishAs(tx, job.id, 'done', { rows, ref, sizeBytes }),
      );
      if (recorded) await file.ensureStored();
      else await db.transaction((tx) => releaseExportContent(tx, storage, ref));
      await file.abort();
    } catch (error) {
      await beating;
      await file.abort();
      if (!lost) {
        const reason = error instanceof WriterFailure ? error.reason : 'EXPORT_FAILED';
        if (!(error instanceof WriterFailure))
          console.error(`export ${job.id} failed: ${describeError(error)}`);
        await finishAs(db, job.id, 'failed', {
          rows: rowsRead,
          reason: stopping ? 'INSTANCE_STOPPED' : reason,
        });
      }
    } finally {
      clearInterval(renew);
      current = null;
    }
  }

  async function runNext(): Promise<boolean> {
    const job = await claim();
    if (!job) return false;
    await run(job);
    return true;
  }

  async function recoverAbandoned(): Promise<number> {
    const { rows } = await db.query<{ id: string }>(
      `UPDATE export_jobs SET status = 'failed', error_reason = 'INSTANCE_STOPPED', finished_at = $1,
              runner_id = NULL, lease_expires_at = NULL
        WHERE status = 'running' AND lease_expires_at < $1 RETURNING id`,
      [clock()],
    );
    return rows.length;
  }

  async function sweepExpired(): Promise<number> {
    const now = clock();
    const expired = await db.transaction(async (tx) => {
      const { rows } = await tx.query<{ file_ref: string | null }>(
        `WITH due AS (
           SELECT id, file_ref FROM export_jobs
            WHERE expires_at <= $1 AND status IN ('done', 'queued') FOR UPDATE SKIP LOCKED)
         UPDATE export_jobs j SET status = 'expired', file_ref = NULL, finished_at = coalesce(j.finished_at, $1)
           FROM due WHERE j.id = due.id RETURNING due.file_ref`,
        [now],
      );
      // Sorted, so two sweeps take the per-content locks in one order.
      const refs = [...new Set(rows.flatMap((r) => (r.file_ref ? [r.file_ref] : [])))].sort();
      for (const ref of refs) await releaseExportContent(tx, storage, ref);
      return rows.length;
    });
    await db.query(`DELETE FROM export_jobs WHERE expires_at <= $1 AND status <> 'running'`, [
      new Date(now.getTime() - EXPORT_RETENTION_MS),
    ]);
    return expired;
  }

  async function loop(): Promise<void> {
    do {
      again = false;
      await recoverAbandoned();
      // After recovery: the parts of the jobs just failed go too, and those of jobs another
      // instance failed while this one's process was dead (decision 0125).
      await removeLeftoverParts(db, dataDir);
      await sweepExpired();
      while (!stopping && (await runNext())) {}
    } while (again && !stopping);
  }

  function wake(): void {
    if (stopping) return;
    if (round) {
      again = true;
      return;
    }
    round = loop()
      .catch((error: unknown) => console.error(`export runner: ${describeError(error)}`))
      .finally(() => {
        round = null;
      });
  }

  return {
    instanceId,
    claim,
    run,
    runNext,
    recoverAbandoned,
    removeLeftoverParts: () => removeLeftoverParts(db, dataDir),
    sweepExpired,
    wake,
    start(pollMs = 2000) {
      stopping = false;
      wake();
      timer = setInterval(wake, pollMs);
      timer.unref();
    },
    async stop() {
      stopping = true;
      if (timer) clearInterval(timer);
      timer = null;
      await current?.stop();
      await round;
    },
  };
}

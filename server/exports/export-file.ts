import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Database, Queryable } from '../db/client';
import { type FileStorage, isSha256 } from '../platform/files/storage';

/**
 * Where an export's bytes live: the one module that knows (docs/decisions/0077, 0073). The writer
 * fills a part file under `DATA_DIR/exports` on the instance that runs the job, then puts it into the
 * shared `FileStorage` (local folder or PostgreSQL chunks, decision 0063), so any instance serves the
 * download. The job's `file_ref` is the content's sha256. The part file is written first rather than
 * streamed into the storage because a PostgreSQL put holds a connection for as long as it reads, and
 * the runner reads its rows from the same database while it writes.
 *
 * Content is addressed by hash, so two identical exports share one content: it is deleted only when
 * no other job and no stored_files row still points at it, deciding under a per-content lock that the
 * runner also takes when it records a job done (see `recordExportDone`).
 */

/** Larger than the 40 MB of stored files: a million-row export is hundreds of megabytes (spec §9). */
export const EXPORT_MAX_BYTES = 4 * 1024 ** 3;

/** A part file's name: its job's id (a uuid), its format. */
const PART_NAME = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.(csv|xlsx)\.part$/;

const exportsDir = (dataDir: string) => join(dataDir, 'exports');

/** The local part file of a job: named from its id, so one whose instance died can be cleaned up. */
function partPathOf(dataDir: string, jobId: string, format: 'CSV' | 'XLSX'): string {
  const name = `${jobId}.${format === 'CSV' ? 'csv' : 'xlsx'}.part`;
  if (!PART_NAME.test(name)) throw new Error(`not an export job id: ${JSON.stringify(jobId)}`);
  return join(exportsDir(dataDir), name);
}

export interface ExportFileWriter {
  /** Resolves when the bytes are written: then the chunk's buffer may be reused (back-pressure too). */
  write(chunk: Uint8Array): Promise<void>;
  /** Completes the file and puts it into the storage: `ref` (its sha256) then opens it. */
  finish(): Promise<{ ref: string; sizeBytes: number }>;
  /** Puts the finished bytes again when their content was deleted meanwhile (see `recordExportDone`). */
  ensureStored(): Promise<void>;
  /** Removes the local part file (after the job is recorded, cancelled or failed). */
  abort(): Promise<void>;
}

export async function createExportFile(
  dataDir: string,
  storage: FileStorage,
  jobId: string,
  format: 'CSV' | 'XLSX',
): Promise<ExportFileWriter> {
  const partial = partPathOf(dataDir, jobId, format);
  await mkdir(exportsDir(dataDir), { recursive: true });
  const out = createWriteStream(partial);
  let failure: Error | null = null;
  out.on('error', (error) => {
    failure = error;
  });
  // Waits for 'close' only: an error on the way (a write still buffered when `abort` destroys the
  // stream fails with ERR_STREAM_DESTROYED) is in `failure`, which `finish` checks; `abort` ignores it.
  const closed = () =>
    out.closed ? Promise.resolve() : new Promise<void>((resolve) => out.once('close', () => resolve()));
  const store = async () => {
    const stored = await storage.put(createReadStream(partial), { maxBytes: EXPORT_MAX_BYTES });
    return { ref: stored.sha256, sizeBytes: stored.sizeBytes };
  };
  let ref: string | null = null;
  return {
    async write(chunk) {
      if (failure) throw failure;
      // Resolves once the chunk is in the file, not merely queued: the CSV writer reuses its buffers
      // (CopyCsvReader.take), and this is the back-pressure too.
      await new Promise<void>((resolve) => out.write(chunk, () => resolve()));
      if (failure) throw failure;
    },
    async finish() {
      out.end();
      await closed();
      if (failure) throw failure;
      const stored = await store();
      ref = stored.ref;
      return stored;
    },
    async ensureStored() {
      if (ref === null) throw new Error('ensureStored before finish');
      if (!(await storage.has(ref))) await store();
    },
    async abort() {
      out.destroy();
      await closed();
      await rm(partial, { force: true });
    },
  };
}

/** The bytes of a finished export from the shared storage, or null when they are gone. */
export async function openExportFile(
  storage: FileStorage,
  ref: string,
): Promise<{ stream: ReadableStream<Uint8Array>; sizeBytes: number } | null> {
  // A reference from before the shared storage (a file name) points at nothing any more.
  if (!isSha256(ref)) return null;
  const size = await storage.size(ref);
  return size === null ? null : { stream: storage.get(ref), sizeBytes: size };
}

/**
 * Removes the part files under this instance's `DATA_DIR/exports` whose job is not running: what a
 * process killed mid-write left there (issue 28). The job may have been failed by another instance,
 * whose own folder is not this one, so each instance sweeps its folder itself, at start and every
 * round. A running job's part stays: another instance on the same DATA_DIR may be writing it (it claims
 * the job before it creates the file). Answers how many were removed.
 */
export async function removeLeftoverParts(db: Queryable, dataDir: string): Promise<number> {
  const names = await readdir(exportsDir(dataDir)).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  const parts = names.flatMap((name) => {
    const jobId = PART_NAME.exec(name)?.[1];
    return jobId ? [{ name, jobId }] : [];
  });
  if (parts.length === 0) return 0;
  const { rows } = await db.query<{ id: string }>(
    `SELECT id FROM export_jobs WHERE id = ANY($1::uuid[]) AND status = 'running'`,
    [parts.map((part) => part.jobId)],
  );
  const running = new Set(rows.map((row) => row.id));
  const left = parts.filter((part) => !running.has(part.jobId));
  await Promise.all(left.map((part) => rm(join(exportsDir(dataDir), part.name), { force: true })));
  return left.length;
}

/** Serialises deciding about one content: recording a job done with it against deleting it. */
async function lockContent(tx: Queryable, ref: string): Promise<void> {
  await tx.query(`SELECT pg_advisory_xact_lock(hashtextextended('export-content:' || $1, 0))`, [ref]);
}

/**
 * Runs `record` (the UPDATE that makes the job done with `ref`) under the content's lock. A sweep that
 * deleted the identical content between our put and this lock has finished by then, so the caller
 * checks the content afterwards (`ensureStored`); a later sweep sees this job and keeps it.
 */
export async function recordExportDone<T>(
  db: Pick<Database, 'transaction'>,
  ref: string,
  record: (tx: Queryable) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    await lockContent(tx, ref);
    return record(tx);
  });
}

/**
 * Deletes an export's content once nothing points at it: no done job (the expired ones gave up their
 * reference already) and no stored_files row with the same bytes. Called inside the transaction that
 * removed the reference, so the decision and the deletion hold the lock together.
 */
export async function releaseExportContent(tx: Queryable, storage: FileStorage, ref: string): Promise<void> {
  if (!isSha256(ref)) return;
  await lockContent(tx, ref);
  const { rows } = await tx.query<{ used: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM export_jobs WHERE file_ref = $1)
         OR EXISTS (SELECT 1 FROM stored_files WHERE sha256 = $1) AS used`,
    [ref],
  );
  if (!rows[0]!.used) await storage.delete(ref);
}

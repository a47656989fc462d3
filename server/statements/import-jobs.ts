import type { SourceImportJob } from '../../contract/source-import';
import type { StatementImportJob } from '../../contract/statement-import';
import type { SourceKind } from '../../domain/sources/source-ids';
import type { Database, Queryable } from '../db/client';
import { refuse } from '../platform/refusal';

/**
 * The rows of `statement_import_jobs` (migration 0024, docs/decisions/0097): what the console polls
 * while an import runs, and how a job whose instance died is told apart from one still running. The
 * payouts and invoices imports are jobs of the same table, told apart by `kind` (migration 0043,
 * decision 0152): one lease, one sweep, one runner id per instance for every import.
 */

/** `STATEMENT`, or the source a payouts or invoices import reads (`SOURCE_KINDS`). */
export type ImportKind = 'STATEMENT' | SourceKind;

export type ImportPhase = StatementImportJob['phase'] | SourceImportJob['phase'];

/** A job as either API answers it: a statement import's fields, and a source import's `kind`. */
export type ImportJob = Omit<StatementImportJob, 'phase' | 'result'> & {
  kind: ImportKind;
  phase: ImportPhase;
  result: object | null;
  /** A failed job's facts, as its refusal's 422 would have answered them (a SAF-T's `schemaErrors`); else null. */
  errorFacts: Record<string, unknown> | null;
};

export interface ImportProgress {
  phase: ImportPhase;
  done: number;
  total: number;
}

interface JobRow {
  id: string;
  kind: ImportKind;
  file_name: string;
  status: StatementImportJob['status'];
  phase: ImportPhase;
  done: number;
  total: number;
  result: object | string | null;
  error_code: string | null;
  error_facts: Record<string, unknown> | null;
  created_at: Date;
}

const JOB_COLUMNS =
  'id, kind, file_name, status, phase, done, total, result, error_code, error_facts, created_at';

function jobOf(row: JobRow): ImportJob {
  return {
    id: row.id,
    kind: row.kind,
    fileName: row.file_name,
    status: row.status,
    phase: row.phase,
    done: row.done,
    total: row.total,
    // PGlite answers jsonb parsed, pg too; a text answer would come from a cast somewhere upstream.
    result: typeof row.result === 'string' ? (JSON.parse(row.result) as object) : row.result,
    errorCode: row.error_code,
    errorFacts: row.error_facts,
    createdAt: row.created_at.toISOString(),
  };
}

export interface NewImportJob {
  kind: ImportKind;
  requestedBy: string;
  fileName: string;
  sha256: string;
  total: number;
  runnerId: string;
  leaseExpiresAt: Date;
  at: Date;
}

/**
 * Records a RUNNING job. The unique index on the content's hash (live or finished jobs) refuses a second
 * upload of the same bytes made while the first is still importing: one import, whatever the timing.
 */
export async function insertImportJob(tx: Queryable, job: NewImportJob): Promise<ImportJob> {
  const { rows } = await tx.query<JobRow>(
    `INSERT INTO statement_import_jobs (kind, requested_by, file_name, sha256, total, runner_id, lease_expires_at, created_at)
     VALUES ($8, $1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (sha256) WHERE status <> 'FAILED' DO NOTHING
     RETURNING ${JOB_COLUMNS}`,
    [
      job.requestedBy,
      job.fileName,
      job.sha256,
      job.total,
      job.runnerId,
      job.leaseExpiresAt,
      job.at,
      job.kind,
    ],
  );
  if (!rows[0])
    throw refuse(job.kind === 'STATEMENT' ? 'STATEMENT_ALREADY_IMPORTED' : 'SOURCE_ALREADY_IMPORTED');
  return jobOf(rows[0]);
}

/** A statement import's job (`statements: true`), or a source import's: the other API's ids are not found. */
export async function findImportJob(
  db: Queryable,
  id: string,
  of: 'statements' | 'sources' = 'statements',
): Promise<ImportJob | null> {
  const { rows } = await db.query<JobRow>(
    `SELECT ${JOB_COLUMNS} FROM statement_import_jobs WHERE id = $1 AND (kind = 'STATEMENT') = $2`,
    [id, of === 'statements'],
  );
  return rows[0] ? jobOf(rows[0]) : null;
}

/** A statement import's job as its API answers it (without the `kind` every one of them has). */
export function statementJobOf({
  kind: _statement,
  errorFacts: _facts,
  ...job
}: ImportJob): StatementImportJob {
  return job as StatementImportJob;
}

/**
 * Progress and the lease in one statement, from outside the import's transaction (another pooled
 * connection), so other instances can report it. False when the job is no longer this runner's.
 */
export async function storeProgress(
  db: Database,
  id: string,
  runnerId: string,
  progress: ImportProgress,
  leaseExpiresAt: Date,
): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE statement_import_jobs SET phase = $3, done = $4, total = $5, lease_expires_at = $6
     WHERE id = $1 AND status = 'RUNNING' AND runner_id = $2`,
    [id, runnerId, progress.phase, progress.done, progress.total, leaseExpiresAt],
  );
  return rowCount > 0;
}

/**
 * Inside the import's transaction: the job is DONE only if this runner still holds it. A job the sweep
 * already failed (the lease ran out) throws, and the import rolls back with it: never DONE twice.
 */
export async function finishImportJob(
  tx: Queryable,
  id: string,
  runnerId: string,
  result: object,
  at: Date,
): Promise<void> {
  const { rowCount } = await tx.query(
    `UPDATE statement_import_jobs
        SET status = 'DONE', phase = 'done', done = total, result = $3::jsonb, runner_id = NULL,
            lease_expires_at = NULL, finished_at = $4
      WHERE id = $1 AND status = 'RUNNING' AND runner_id = $2`,
    [id, runnerId, JSON.stringify(result), at],
  );
  if (rowCount === 0) throw new Error(`import ${id} lost its claim before it could finish`);
}

/** The job FAILED with its refusal's code and, where the refusal says more, its facts (`error_facts`). */
export async function failImportJob(
  db: Queryable,
  id: string,
  runnerId: string,
  code: string,
  at: Date,
  facts: Record<string, unknown> | null = null,
) {
  await db.query(
    `UPDATE statement_import_jobs
        SET status = 'FAILED', error_code = $3, error_facts = $5::jsonb, runner_id = NULL, lease_expires_at = NULL,
            finished_at = $4
      WHERE id = $1 AND status = 'RUNNING' AND runner_id = $2`,
    [id, runnerId, code, at, facts && JSON.stringify(facts)],
  );
}

/**
 * Jobs whose instance stopped: the lease ran out (PostgreSQL, several instances), or — on PGlite, which
 * one process owns — any job another process left RUNNING. Their import never committed.
 */
export async function failAbandonedImports(
  db: Queryable,
  options: { at: Date; runnerId: string; singleProcess: boolean },
): Promise<number> {
  const { rowCount } = await db.query(
    `UPDATE statement_import_jobs
        SET status = 'FAILED', error_code = 'STATEMENT_IMPORT_INTERRUPTED', runner_id = NULL, lease_expires_at = NULL,
            finished_at = $1
      WHERE status = 'RUNNING' AND (lease_expires_at < $1 OR ($3 AND runner_id <> $2))`,
    [options.at, options.runnerId, options.singleProcess],
  );
  return rowCount;
}

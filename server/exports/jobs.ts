import type { z } from 'zod';
import type { exportJobListQuerySchema, exportJobSchema } from '../../contract/exports';
import {
  EXPORT_MAX_RANGE_DAYS,
  EXPORT_TYPES,
  type ExportDateField,
  type ExportFormat,
  type ExportStatus,
  type ExportType,
  type LocaleId,
  USER_EXPORT_TYPES,
} from '../../contract/statuses';
import { XLSX_MAX_ROWS } from '../../domain/export-files';
import type { Database, Queryable } from '../db/client';
import { estimateRows, exactPage, SqlParams, totalWithEstimate } from '../db/list';
import { recordAudit } from '../platform/audit';
import { type Actor, mutation } from '../platform/mutation';
import { refuse } from '../platform/refusal';
import { type ExportFilters, exportSource } from './sources';

export type ExportJob = z.infer<typeof exportJobSchema>;
export type ExportJobListQuery = z.output<typeof exportJobListQuerySchema>;

/** How long a finished export stays downloadable (DESIGN §6), and its row after that (decision 0077). */
export const EXPORT_RETENTION_MS = 7 * 86_400_000;

/** Above this many matching rows the planner's estimate is the total shown while the job runs. */
const EXACT_COUNT_LIMIT = 100_000;

export interface ExportJobRow {
  id: string;
  requested_by: string;
  type: ExportType;
  filters: ExportFilters;
  format: ExportFormat;
  locale: LocaleId;
  status: ExportStatus;
  rows_written: number;
  estimated_total: number;
  total_is_estimate: boolean;
  file_ref: string | null;
  file_name: string | null;
  size_bytes: number | null;
  error_reason: string | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  expires_at: Date;
  runner_id: string | null;
  lease_expires_at: Date | null;
}

const iso = (date: Date | null) => (date === null ? null : date.toISOString());

export function toExportJob(row: ExportJobRow): ExportJob {
  return {
    id: row.id,
    type: row.type,
    format: row.format,
    locale: row.locale,
    filters: row.filters,
    status: row.status,
    rowsWritten: row.rows_written,
    estimatedTotal: row.estimated_total,
    totalEstimated: row.total_is_estimate,
    fileName: row.file_name,
    sizeBytes: row.size_bytes,
    errorReason: row.error_reason,
    createdAt: row.created_at.toISOString(),
    startedAt: iso(row.started_at),
    finishedAt: iso(row.finished_at),
    expiresAt: row.expires_at.toISOString(),
  };
}

/** What a start request asks for, once the route has read it. */
export interface ExportRequest {
  type: string;
  dateField?: ExportDateField;
  startDate: string;
  endDate?: string | undefined;
  format: ExportFormat;
  locale: LocaleId;
}

const lisbonDay = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Lisbon' });
/** The calendar day of an instant in Europe/Lisbon, `YYYY-MM-DD`. */
export const lisbonToday = (at: Date) => lisbonDay.format(at);
const dayNumber = (day: string) => Date.parse(`${day}T00:00:00Z`) / 86_400_000;

/**
 * The checks every start makes before any SQL (decision 0076): a known type, an end not before the
 * start, and a range (to the end date, or to today when there is none) within EXPORT_MAX_RANGE_DAYS.
 */
export function checkExportRequest(
  request: ExportRequest,
  allowed: readonly string[],
  today: string,
): ExportType {
  if (!allowed.includes(request.type)) throw refuse('EXPORT_TYPE_UNKNOWN', { field: 'type' });
  if (request.endDate !== undefined && request.endDate < request.startDate)
    throw refuse('EXPORT_END_BEFORE_START', { field: 'endDate' });
  const last = request.endDate ?? (today > request.startDate ? today : request.startDate);
  if (dayNumber(last) - dayNumber(request.startDate) + 1 > EXPORT_MAX_RANGE_DAYS)
    throw refuse('EXPORT_RANGE_TOO_LONG', { field: request.endDate === undefined ? 'startDate' : 'endDate' });
  return request.type as ExportType;
}

export const USER_EXPORTS: readonly string[] = USER_EXPORT_TYPES;
export const ALL_EXPORTS: readonly string[] = EXPORT_TYPES;

/**
 * Records an export job and answers it at once (the runner does the work). The rows are counted first
 * (exactly up to EXACT_COUNT_LIMIT, the planner's estimate beyond), so an empty range is refused with
 * NO_RECORDS_FOUND_WITH_DATES and no job, an XLSX export of more rows than a sheet holds with
 * EXPORT_XLSX_TOO_MANY_ROWS and no job, and the progress bar has a total from the start.
 */
export async function startExport(
  db: Database,
  actor: Actor,
  request: ExportRequest,
  allowed: readonly string[],
  publicUrl: string,
  xlsxMaxRows = XLSX_MAX_ROWS - 1,
): Promise<ExportJob> {
  const today = lisbonToday(actor.at);
  const type = checkExportRequest(request, allowed, today);
  const filters: ExportFilters = {
    dateField: USER_EXPORTS.includes(type) ? (request.dateField ?? 'CREATED') : 'CREATED',
    startDate: request.startDate,
    endDate: request.endDate ?? null,
  };
  const source = exportSource(type, filters, publicUrl, request.locale);
  const estimate = await estimateRows(db, source.countFrom, [], source.countValues);
  const total = await totalWithEstimate(
    db,
    source.countFrom,
    [],
    source.countValues,
    estimate,
    EXACT_COUNT_LIMIT,
  );
  if (total.total === 0) throw refuse('NO_RECORDS_FOUND_WITH_DATES', { field: 'startDate' });
  // Refused before a job rather than failed after minutes of writing. On an estimate this is a guess
  // either way by a few percent; the writer still stops at the sheet's real limit (XLSX_TOO_MANY_ROWS).
  if (request.format === 'XLSX' && total.total > xlsxMaxRows)
    throw refuse('EXPORT_XLSX_TOO_MANY_ROWS', { field: 'format' });
  const extension = request.format === 'CSV' ? 'csv' : 'xlsx';
  const fileName = `${source.name[request.locale]} ${filters.startDate} ${filters.endDate ?? today}.${extension}`;
  return mutation(db, actor, { action: 'export.start', entityType: 'export' }, async (tx) => {
    const { rows } = await tx.query<ExportJobRow>(
      `INSERT INTO export_jobs (requested_by, type, filters, format, locale, estimated_total, total_is_estimate,
                                file_name, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING *`,
      [
        actor.userId,
        type,
        JSON.stringify(filters),
        request.format,
        request.locale,
        total.total,
        total.totalEstimated === true,
        fileName,
        actor.at,
        new Date(actor.at.getTime() + EXPORT_RETENTION_MS),
      ],
    );
    const job = toExportJob(rows[0]!);
    return { result: job, entityId: job.id, after: { type, filters, format: request.format } };
  });
}

/** One of the admin's own exports (another admin's is not found: "your exports"). */
export async function findOwnExport(db: Queryable, userId: string, id: string): Promise<ExportJobRow> {
  const { rows } = await db.query<ExportJobRow>(
    'SELECT * FROM export_jobs WHERE id = $1 AND requested_by = $2',
    [id, userId],
  );
  if (!rows[0]) throw refuse('EXPORT_NOT_FOUND');
  return rows[0];
}

/** "Your exports": newest first, keyset pages, of one type and one status if asked. */
export async function listOwnExports(db: Queryable, userId: string, query: ExportJobListQuery) {
  const params = new SqlParams();
  const where = [`j.requested_by = ${params.add(userId)}::uuid`];
  if (query.type) where.push(`j.type = ${params.add(query.type)}`);
  if (query.status) where.push(`j.status = ${params.add(query.status)}`);
  const page = await exactPage<ExportJobRow & { id: string }>(
    db,
    {
      select: 'j.*',
      from: 'FROM export_jobs j',
      where,
      params,
      sort: { sql: 'j.created_at', type: 'timestamptz' },
      id: 'j.id',
      order: 'desc',
    },
    { sort: 'created', order: 'desc', cursor: query.cursor, limit: query.limit },
  );
  return { items: page.rows.map(toExportJob), nextCursor: page.nextCursor, total: page.total };
}

/**
 * Cancels a queued or running export. A queued one is never started; a running one stops at its
 * runner's next heartbeat, which finds the job no longer running and drops the file.
 */
export function cancelExport(db: Database, actor: Actor, id: string): Promise<ExportJob> {
  return mutation(db, actor, { action: 'export.cancel', entityType: 'export' }, async (tx) => {
    const before = await findOwnExport(tx, actor.userId, id);
    const { rows } = await tx.query<ExportJobRow>(
      `UPDATE export_jobs SET status = 'cancelled', finished_at = $2, runner_id = NULL, lease_expires_at = NULL
        WHERE id = $1 AND status IN ('queued', 'running') RETURNING *`,
      [id, actor.at],
    );
    if (!rows[0]) throw refuse('EXPORT_NOT_CANCELLABLE');
    return {
      result: toExportJob(rows[0]),
      entityId: id,
      before: { status: before.status, rowsWritten: before.rows_written },
      after: { status: 'cancelled' },
    };
  });
}

/** The job whose file may be downloaded now, after writing who downloaded it to the audit log. */
export async function exportForDownload(db: Queryable, actor: Actor, id: string): Promise<ExportJobRow> {
  const job = await findOwnExport(db, actor.userId, id);
  if (job.status === 'expired') throw refuse('EXPORT_EXPIRED');
  if (job.status !== 'done' || job.file_ref === null) throw refuse('EXPORT_NOT_READY');
  await recordAudit(db, {
    actorId: actor.userId,
    action: 'export.download',
    entityType: 'export',
    entityId: id,
    after: { fileName: job.file_name, sizeBytes: job.size_bytes },
    at: actor.at,
  });
  return job;
}

import type { z } from 'zod';
import type { exportJobPageSchema, exportJobSchema } from '../../contract/exports';
import type { ExportDateField, ExportFormat, ExportType, LocaleId } from '../../contract/statuses';
import { request } from './http';

// Types only: the schemas (and zod) stay out of the console's bundle.
export type ExportJob = z.infer<typeof exportJobSchema>;
export type ExportJobPage = z.infer<typeof exportJobPageSchema>;

export interface ExportStart {
  type: ExportType;
  dateField: ExportDateField;
  startDate: string;
  endDate: string;
  format: ExportFormat;
  locale: LocaleId;
}

/** The specification's calls: users (three types) share `admin/users/export`; statistics are the share-link occurrences. */
export function startExport({ type, dateField, startDate, endDate, format, locale }: ExportStart) {
  const dates = { startDate, endDate: endDate || undefined, format, locale };
  if (type === 'CASES') return request<ExportJob>('admin/cases/export', { method: 'post', data: dates });
  if (type === 'STATS')
    return request<ExportJob>('admin/share-link-occurrences', { method: 'post', data: dates });
  return request<ExportJob>('admin/users/export', { method: 'post', data: { type, dateField, ...dates } });
}

export const exportJobsKey = (type: ExportType) => ['exports', type] as const;
export const failedExportsKey = ['exports', 'failed'] as const;

/** "Your exports" of one type, newest first (the first page: the screen shows the latest 20). */
export const fetchExportJobs = (type: ExportType) =>
  request<ExportJobPage>('admin/exports', { params: { type, limit: 20 } });

/** The caller's failed exports of every type, newest first, in keyset pages (the home card's list). */
export const fetchFailedExports = ({ cursor, limit }: { cursor?: string; limit: number }) =>
  request<ExportJobPage>('admin/exports', { params: { status: 'failed', cursor, limit } });

export const cancelExport = (id: string) =>
  request<ExportJob>(`admin/exports/${encodeURIComponent(id)}/cancel`, { method: 'post' });

/** A plain link: downloads accept the session cookie, so the browser saves the file itself. */
export const exportDownloadUrl = (id: string) =>
  `${(import.meta.env.VITE_API_BASE_URL ?? '').replace(/\/+$/, '')}/v2/admin/exports/${encodeURIComponent(id)}/download`;

export const isActiveExport = (job: ExportJob) => job.status === 'queued' || job.status === 'running';

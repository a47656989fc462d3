import type { ExportStatus, ExportType } from '../../../contract/statuses';
import type { ExportJob } from '../../api/exports';
import type { Translate } from '../../i18n/i18n';
import { formatDate } from '../../kernel/dates';

// How an export job reads on the export screens and on "your failed exports".

export const STATUS_KEYS: Record<ExportStatus, string> = {
  queued: 'exports.status.queued',
  running: 'exports.status.running',
  done: 'exports.status.done',
  failed: 'exports.status.failed',
  cancelled: 'exports.status.cancelled',
  expired: 'exports.status.expired',
};

export const TYPE_KEYS: Record<ExportType, string> = {
  USERS: 'exports.types.USERS',
  CUSTOMERS: 'exports.types.CUSTOMERS',
  PROFESSIONALS: 'exports.types.PROFESSIONALS',
  CASES: 'exports.types.CASES',
  STATS: 'exports.types.STATS',
};

/** The five export routes (spec §2), one screen: the path says what is exported. */
export const EXPORT_PATHS: Record<ExportType, string> = {
  USERS: '/export/users',
  CUSTOMERS: '/export/customers',
  PROFESSIONALS: '/export/professionals',
  CASES: '/export/cases',
  STATS: '/export/stats',
};

/** Why a job failed, by the reason the runner stored (decision 0077); anything else is "other". */
const FAILURE_KEYS: Record<string, string> = {
  INSTANCE_STOPPED: 'exports.failure.INSTANCE_STOPPED',
  XLSX_TOO_MANY_ROWS: 'exports.failure.XLSX_TOO_MANY_ROWS',
  ERR_WORKER_OUT_OF_MEMORY: 'exports.failure.ERR_WORKER_OUT_OF_MEMORY',
};

export const failureKey = (job: ExportJob) => FAILURE_KEYS[job.errorReason ?? ''] ?? 'exports.failure.other';

/** Which dates the job exported: "Created: 1 Jan 2026 – today". */
export const exportDates = (t: Translate, job: ExportJob, locale: string) =>
  `${t(job.filters.dateField === 'LAST_ACTIVE' ? 'exports.lastActive' : 'exports.created')}: ${formatDate(
    job.filters.startDate,
    locale,
  )} – ${job.filters.endDate ? formatDate(job.filters.endDate, locale) : t('exports.today')}`;

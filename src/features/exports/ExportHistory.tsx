import type { ExportStatus, ExportType } from '../../../contract/statuses';
import { type ExportJob, exportDownloadUrl } from '../../api/exports';
import { useI18n } from '../../i18n/i18n';
import { formatDate, formatDateTime } from '../../kernel/dates';

const STATUS_KEYS: Record<ExportStatus, string> = {
  queued: 'exports.status.queued',
  running: 'exports.status.running',
  done: 'exports.status.done',
  failed: 'exports.status.failed',
  cancelled: 'exports.status.cancelled',
  expired: 'exports.status.expired',
};

const TYPE_KEYS: Record<ExportType, string> = {
  USERS: 'exports.types.USERS',
  CUSTOMERS: 'exports.types.CUSTOMERS',
  PROFESSIONALS: 'exports.types.PROFESSIONALS',
  CASES: 'exports.types.CASES',
  STATS: 'exports.types.STATS',
};

/** Why a job failed, by the reason the runner stored (decision 0077); anything else is "other". */
const FAILURE_KEYS: Record<string, string> = {
  INSTANCE_STOPPED: 'exports.failure.INSTANCE_STOPPED',
  XLSX_TOO_MANY_ROWS: 'exports.failure.XLSX_TOO_MANY_ROWS',
  ERR_WORKER_OUT_OF_MEMORY: 'exports.failure.ERR_WORKER_OUT_OF_MEMORY',
};

/** "Your exports" of this type: what, which dates, rows, size, status, when, until when, download. */
export function ExportHistory({ jobs, loading }: { jobs: readonly ExportJob[]; loading: boolean }) {
  const { t, locale } = useI18n();
  const number = new Intl.NumberFormat(locale);
  const megabytes = new Intl.NumberFormat(locale, {
    style: 'unit',
    unit: 'megabyte',
    maximumFractionDigits: 1,
  });
  if (loading) return <p role="status">{t('table.loading')}</p>;
  return (
    <section className="exports-history" aria-labelledby="export-history-title">
      <h2 id="export-history-title">{t('exports.history')}</h2>
      {jobs.length === 0 ? (
        <p>{t('exports.noHistory')}</p>
      ) : (
        <table aria-labelledby="export-history-title">
          <thead>
            <tr>
              <th scope="col">{t('exports.columns.type')}</th>
              <th scope="col">{t('exports.columns.filters')}</th>
              <th scope="col">{t('exports.columns.rows')}</th>
              <th scope="col">{t('exports.columns.size')}</th>
              <th scope="col">{t('exports.columns.status')}</th>
              <th scope="col">{t('exports.columns.created')}</th>
              <th scope="col">{t('exports.columns.expires')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('exports.columns.file')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {jobs.map((job) => (
              <tr key={job.id}>
                <td>
                  {t(TYPE_KEYS[job.type])} · {job.format}
                </td>
                <td>
                  {t(job.filters.dateField === 'LAST_ACTIVE' ? 'exports.lastActive' : 'exports.created')}:{' '}
                  {formatDate(job.filters.startDate, locale)} –{' '}
                  {job.filters.endDate ? formatDate(job.filters.endDate, locale) : t('exports.today')}
                </td>
                <td>{number.format(job.rowsWritten)}</td>
                <td>{job.sizeBytes === null ? '' : megabytes.format(job.sizeBytes / 1_000_000)}</td>
                <td>
                  {t(STATUS_KEYS[job.status])}
                  {job.status === 'failed' ? (
                    <> — {t(FAILURE_KEYS[job.errorReason ?? ''] ?? 'exports.failure.other')}</>
                  ) : null}
                </td>
                <td>{formatDateTime(job.createdAt, locale)}</td>
                <td>{formatDateTime(job.expiresAt, locale)}</td>
                <td>
                  {job.status === 'done' ? (
                    <a href={exportDownloadUrl(job.id)} download={job.fileName ?? true}>
                      {t('exports.download', { name: job.fileName ?? '' })}
                    </a>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

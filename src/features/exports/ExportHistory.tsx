import { type ExportJob, exportDownloadUrl } from '../../api/exports';
import { useI18n } from '../../i18n/i18n';
import { formatDateTime } from '../../kernel/dates';
import { exportDates, failureKey, STATUS_KEYS, TYPE_KEYS } from './export-format';

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
                <td>{exportDates(t, job, locale)}</td>
                <td>{number.format(job.rowsWritten)}</td>
                <td>{job.sizeBytes === null ? '' : megabytes.format(job.sizeBytes / 1_000_000)}</td>
                <td>
                  {t(STATUS_KEYS[job.status])}
                  {job.status === 'failed' ? <> — {t(failureKey(job))}</> : null}
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

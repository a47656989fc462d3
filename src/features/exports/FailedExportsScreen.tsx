import { useMemo } from 'react';
import { type ExportJob, failedExportsKey, fetchFailedExports } from '../../api/exports';
import { type DataColumn, DataTable, type PageRequest } from '../../components/DataTable/DataTable';
import { useI18n } from '../../i18n/i18n';
import { formatDateTime } from '../../kernel/dates';
import { EXPORT_PATHS, exportDates, failureKey, TYPE_KEYS } from './export-format';

const rowId = (job: ExportJob) => job.id;
/** Enter opens the export screen of the job's type, to ask for it again. */
const rowHref = (job: ExportJob) => EXPORT_PATHS[job.type];
const fetchPage = ({ cursor, limit }: PageRequest) =>
  fetchFailedExports({ cursor: cursor ?? undefined, limit });

/**
 * `/export/failed`: the signed-in admin's failed exports of every type (an admin sees only their own,
 * decision 0077), what each was and why it failed; the home card "your failed exports" opens it
 * (decision 0143).
 */
export default function FailedExportsScreen() {
  const { t, locale } = useI18n();
  const columns = useMemo<DataColumn<ExportJob>[]>(
    () => [
      {
        id: 'type',
        header: t('exports.columns.type'),
        hideable: false,
        width: '12rem',
        cell: (job) => `${t(TYPE_KEYS[job.type])} · ${job.format}`,
      },
      {
        id: 'dates',
        header: t('exports.columns.filters'),
        width: 'minmax(14rem, 1fr)',
        cell: (job) => exportDates(t, job, locale),
      },
      {
        id: 'reason',
        header: t('exports.columns.status'),
        width: 'minmax(14rem, 1fr)',
        cell: (job) => `${t('exports.status.failed')} — ${t(failureKey(job))}`,
      },
      {
        id: 'created',
        header: t('exports.columns.created'),
        width: '11rem',
        cell: (job) => formatDateTime(job.createdAt, locale),
      },
    ],
    [t, locale],
  );
  return (
    <DataTable
      id="exports-failed"
      label={t('routes.exportsFailed')}
      columns={columns}
      queryKey={failedExportsKey}
      fetchPage={fetchPage}
      getRowId={rowId}
      rowHref={rowHref}
      searchable={false}
    />
  );
}

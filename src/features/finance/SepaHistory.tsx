import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useCallback, useMemo, useRef, useState } from 'react';
import { SEPA_STATUSES } from '../../../domain/sepa-status';
import { errorCodeOf } from '../../../machines/session';
import { settlementKeys } from '../../api/finance';
import {
  fetchSepaFiles,
  type SepaFile,
  type SepaStatusReportResult,
  sepaKeys,
  uploadStatusReport,
} from '../../api/sepa';
import {
  type DataColumn,
  type DataFilter,
  DataTable,
  type PageRequest,
} from '../../components/DataTable/DataTable';
import { FilePicker } from '../../components/FilePicker/FilePicker';
import { Pill } from '../../components/Pill/Pill';
import { SubmitButton } from '../../components/SubmitButton/SubmitButton';
import { errorCodeKey } from '../../i18n/error-codes';
import { useI18n } from '../../i18n/i18n';
import { formatDate, formatDateTime } from '../../kernel/dates';
import { formatMoney, formatMonth, recentMonths } from './format';
import { bankReason, SEPA_STATUS_KEYS, SEPA_STATUS_TONES } from './sepa-format';
import { useFormRequest } from './use-form-request';

const rowId = (row: SepaFile) => row.id;
const rowHref = (row: SepaFile) => `/sepa/${row.id}`;
const fetchPage = ({ filters, cursor, limit }: PageRequest) => fetchSepaFiles({ ...filters, cursor, limit });

/** "SEPA history": every file, newest first; Enter opens its detail. The bank's pain.002 is uploaded here. */
export function SepaHistory() {
  const { t, locale } = useI18n();
  const columns = useMemo<DataColumn<SepaFile>[]>(
    () => [
      {
        id: 'msgId',
        header: t('sepa.columns.msgId'),
        hideable: false,
        width: '16rem',
        cell: (f) => <code>{f.msgId}</code>,
      },
      {
        id: 'status',
        header: t('finance.columns.status'),
        width: '9rem',
        cell: (f) => <Pill tone={SEPA_STATUS_TONES[f.status]}>{t(SEPA_STATUS_KEYS[f.status])}</Pill>,
      },
      {
        id: 'month',
        header: t('finance.columns.month'),
        width: '10rem',
        cell: (f) => formatMonth(f.referenceMonth, locale),
      },
      {
        id: 'execution',
        header: t('sepa.columns.executionDate'),
        width: '8rem',
        cell: (f) => formatDate(f.executionDate, locale),
      },
      { id: 'transfers', header: t('sepa.columns.transfers'), width: '6rem', cell: (f) => f.transferCount },
      {
        id: 'amount',
        header: t('sepa.columns.amount'),
        width: '9rem',
        cell: (f) => formatMoney(f.amountCents, locale),
      },
      { id: 'createdBy', header: t('sepa.columns.createdBy'), cell: (f) => f.createdBy?.name ?? '—' },
      {
        id: 'createdAt',
        header: t('finance.columns.createdAt'),
        width: '11rem',
        cell: (f) => formatDateTime(f.createdAt, locale),
      },
    ],
    [t, locale],
  );
  const filters = useMemo<DataFilter[]>(
    () => [
      {
        key: 'status',
        label: t('finance.columns.status'),
        kind: 'multi',
        options: SEPA_STATUSES.map((s) => ({ value: s, label: t(SEPA_STATUS_KEYS[s]) })),
      },
      {
        key: 'referenceMonth',
        label: t('finance.filters.month'),
        kind: 'select',
        options: recentMonths().map((m) => ({ value: m, label: formatMonth(m, locale) })),
      },
    ],
    [t, locale],
  );
  return (
    <>
      <StatusReportUpload />
      <DataTable
        id="sepa-history"
        label={t('sepa.tabs.history')}
        columns={columns}
        queryKey={sepaKeys.files}
        fetchPage={fetchPage}
        getRowId={rowId}
        rowHref={rowHref}
        filters={filters}
      />
    </>
  );
}

/** The bank's answer (issue 11 item 7): upload a pain.002 and show what it did. */
function StatusReportUpload() {
  const { t, locale } = useI18n();
  const queryClient = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const [result, setResult] = useState<SepaStatusReportResult | null>(null);
  const applied = useCallback(
    (answer: SepaStatusReportResult) => {
      setResult(answer);
      void queryClient.invalidateQueries({ queryKey: sepaKeys.all });
      void queryClient.invalidateQueries({ queryKey: settlementKeys.all });
    },
    [queryClient],
  );
  // A form: its refusal is shown here, in place, and not also as a toast (DESIGN: one place per error).
  const upload = useFormRequest(uploadStatusReport, applied);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const file = input.current?.files?.[0];
    if (!file) return;
    setResult(null);
    void upload.run(file);
  };
  return (
    <form className="status-report-upload" onSubmit={submit} aria-label={t('sepa.report.title')}>
      <FilePicker ref={input} label={t('sepa.report.file')} accept=".xml,application/xml,text/xml" />{' '}
      <SubmitButton pending={upload.pending}>{t('sepa.report.upload')}</SubmitButton>
      {upload.error ? (
        <p role="alert">{t(errorCodeKey(errorCodeOf(upload.error)) ?? 'errorMessages.fallback')}</p>
      ) : null}
      {result ? (
        <div role="status" data-testid="status-report-result">
          <p>
            {t(result.alreadyApplied ? 'sepa.report.already' : 'sepa.report.applied', {
              msgId: result.msgId,
              before: t(SEPA_STATUS_KEYS[result.fileStatusBefore]),
              after: t(SEPA_STATUS_KEYS[result.fileStatus]),
            })}
          </p>
          {result.rejectedTransfers.length > 0 ? (
            <ul>
              {result.rejectedTransfers.map((r) => (
                <li key={r.endToEndId} data-testid={`rejected-${r.endToEndId}`}>
                  {t('sepa.report.rejected', {
                    doctor: r.professionalName,
                    amount: formatMoney(r.amountCents, locale),
                    reason: bankReason(t, r.reasonCode, r.reasonText),
                  })}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
    </form>
  );
}

import './finance-messages';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useLocation, useParams } from 'wouter';
import { errorCodeOf } from '../../../machines/session';
import { fetchSepaFile, type SepaFileDetail, sepaDownloadUrl, sepaKeys } from '../../api/sepa';
import { useEntityActions } from '../../components/EntityActions/useEntityActions';
import { Pill } from '../../components/Pill/Pill';
import { errorCodeKey } from '../../i18n/error-codes';
import { useI18n } from '../../i18n/i18n';
import { formatDate, formatDateTime } from '../../kernel/dates';
import { formatMoney, formatMonth, SETTLEMENT_STATUS_KEYS, shortId } from './format';
import { SEPA_FILE_ACTIONS } from './sepa-file-actions';
import {
  bankReason,
  REPORT_OUTCOME_KEYS,
  SEPA_STATUS_KEYS,
  SEPA_STATUS_TONES,
  STATEMENT_ROLE_KEYS,
} from './sepa-format';

/**
 * `/sepa/:id`: one file, its transfers (a rejected one with the bank's translated reason) and the
 * settlements in each, the bank's status reports and the statement lines that paid it or returned a
 * transfer, each a link to its statement; downloads only while GENERATED.
 */
export default function SepaFileScreen() {
  const { t, locale } = useI18n();
  const { id = '' } = useParams<{ id: string }>();
  const [, navigate] = useLocation();
  const file = useQuery({ queryKey: sepaKeys.file(id), queryFn: () => fetchSepaFile(id) });
  // A deleted file is gone (its cached answer is null): back to the history.
  const deleted = (file.data as SepaFileDetail | null | undefined) === null;
  const { actions, dialog } = useEntityActions(SEPA_FILE_ACTIONS, deleted ? undefined : file.data, undefined);
  useEffect(() => {
    if (deleted) navigate('/sepa?tab=history');
  }, [deleted, navigate]);

  if (file.isPending || deleted) return <p role="status">{t('table.loading')}</p>;
  if (file.isError)
    return <p role="alert">{t(errorCodeKey(errorCodeOf(file.error)) ?? 'errorMessages.fallback')}</p>;
  const f = file.data as SepaFileDetail;
  return (
    <div className="finance-screen sepa-file">
      <p>
        <Link href="/sepa?tab=history">{t('sepa.file.back')}</Link>
      </p>
      <h2>
        {t('sepa.file.title')} <code>{f.msgId}</code>
      </h2>
      <dl className="facts">
        <dt>{t('finance.columns.status')}</dt>
        <dd>
          <Pill tone={SEPA_STATUS_TONES[f.status]} testId="sepa-file-status">
            {t(SEPA_STATUS_KEYS[f.status])}
          </Pill>
        </dd>
        <dt>{t('finance.columns.month')}</dt>
        <dd>{formatMonth(f.referenceMonth, locale)}</dd>
        <dt>{t('sepa.columns.executionDate')}</dt>
        <dd>{formatDate(f.executionDate, locale)}</dd>
        <dt>{t('sepa.columns.amount')}</dt>
        <dd>{formatMoney(f.amountCents, locale)}</dd>
        <dt>{t('sepa.columns.transfers')}</dt>
        <dd>{f.transferCount}</dd>
        <dt>{t('sepa.columns.createdBy')}</dt>
        <dd>
          {f.createdBy?.name ?? '—'}, {formatDateTime(f.createdAt, locale)}
        </dd>
      </dl>
      <div className="actions" data-testid="sepa-file-downloads">
        {f.downloadable ? (
          <>
            <a href={sepaDownloadUrl(f.id, 'xml')} download>
              {t('sepa.downloads.xml')}
            </a>{' '}
            <a href={sepaDownloadUrl(f.id, 'xlsx')} download>
              {t('sepa.downloads.xlsx')}
            </a>
          </>
        ) : (
          <span>{t('sepa.downloads.gone')}</span>
        )}
      </div>
      <div className="actions">
        {actions.map((action) => (
          <button
            key={action.id}
            type="button"
            className={action.danger ? 'danger' : undefined}
            onClick={action.run}
          >
            {action.label}
          </button>
        ))}
      </div>
      <table className="transfers" aria-label={t('sepa.columns.transfers')}>
        <thead>
          <tr>
            <th scope="col">{t('sepa.columns.endToEndId')}</th>
            <th scope="col">{t('finance.columns.doctor')}</th>
            <th scope="col">IBAN</th>
            <th scope="col">{t('sepa.columns.amount')}</th>
            <th scope="col">{t('finance.columns.status')}</th>
            <th scope="col">{t('finance.columns.settlements')}</th>
          </tr>
        </thead>
        <tbody>
          {f.transfers.map((tr) => (
            <tr key={tr.id} data-testid={`transfer-${tr.endToEndId}`}>
              <td>
                <code>{tr.endToEndId}</code>
              </td>
              <td>
                <Link href={`/professionals/${tr.professionalId}`}>{tr.professionalName}</Link>
              </td>
              <td>{tr.creditorIban}</td>
              <td>{formatMoney(tr.amountCents, locale)}</td>
              <td>
                {tr.status === 'REJECTED'
                  ? `${t('sepa.transfer.rejected')}: ${bankReason(t, tr.rejection?.reasonCode ?? null, tr.rejection?.reasonText ?? null)}`
                  : t('sepa.transfer.included')}
              </td>
              <td>
                {tr.settlements.map((s) => (
                  <div key={s.id}>
                    <code>{s.caseId ? shortId(s.caseId) : shortId(s.id)}</code>{' '}
                    {formatMoney(s.amountCents, locale)} {t(SETTLEMENT_STATUS_KEYS[s.status])}
                  </div>
                ))}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <StatusReports file={f} />
      <StatementLines file={f} />
      {dialog}
    </div>
  );
}

/** When the bank answered and what each answer made of the file. */
function StatusReports({ file }: { file: SepaFileDetail }) {
  const { t, locale } = useI18n();
  return (
    <section aria-labelledby="sepa-file-reports">
      <h3 id="sepa-file-reports">{t('sepa.file.reportsTitle')}</h3>
      {file.statusReports.length === 0 ? (
        <p>{t('sepa.file.reportsNone')}</p>
      ) : (
        <table data-testid="sepa-file-reports" aria-labelledby="sepa-file-reports">
          <thead>
            <tr>
              <th scope="col">{t('sepa.file.receivedAt')}</th>
              <th scope="col">{t('sepa.file.reportId')}</th>
              <th scope="col">{t('sepa.file.outcome')}</th>
              <th scope="col">{t('sepa.file.fileStatus')}</th>
            </tr>
          </thead>
          <tbody>
            {file.statusReports.map((r) => (
              <tr key={r.id}>
                <td>{formatDateTime(r.receivedAt, locale)}</td>
                <td>
                  <code>{r.messageId}</code>
                </td>
                <td>{t(REPORT_OUTCOME_KEYS[r.outcome])}</td>
                <td>
                  <Pill tone={SEPA_STATUS_TONES[r.fileStatus]}>{t(SEPA_STATUS_KEYS[r.fileStatus])}</Pill>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** The bank statement lines reconciled with the file: its batch debit, a transfer's debit or return. */
function StatementLines({ file }: { file: SepaFileDetail }) {
  const { t, locale } = useI18n();
  return (
    <section aria-labelledby="sepa-file-lines">
      <h3 id="sepa-file-lines">{t('sepa.file.linesTitle')}</h3>
      {file.statementLines.length === 0 ? (
        <p>{t('sepa.file.linesNone')}</p>
      ) : (
        <table data-testid="sepa-file-lines" aria-labelledby="sepa-file-lines">
          <thead>
            <tr>
              <th scope="col">{t('sepa.file.bankDate')}</th>
              <th scope="col">{t('sepa.columns.amount')}</th>
              <th scope="col">{t('sepa.file.movement')}</th>
              <th scope="col">{t('sepa.file.statementFile')}</th>
            </tr>
          </thead>
          <tbody>
            {file.statementLines.map((line) => (
              <tr key={`${line.lineId}-${line.endToEndId ?? ''}`}>
                <td>{formatDate(line.bankDate, locale)}</td>
                <td>{formatMoney(line.amountCents, locale)}</td>
                <td>
                  {t(STATEMENT_ROLE_KEYS[line.role])}
                  {': '}
                  {line.endToEndId ? <code>{line.endToEndId}</code> : t('sepa.file.wholeFile')}
                </td>
                <td>
                  <Link
                    href={`/statements?statementFileId=${encodeURIComponent(line.statementFileId)}`}
                    aria-label={t('sepa.file.openStatement', { file: line.statementFileName })}
                  >
                    {line.statementFileName}
                  </Link>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

import { useQuery } from '@tanstack/react-query';
import { useLocation, useSearch } from 'wouter';
import { settlementKeys } from '../../api/finance';
import {
  fetchSettlementReport,
  type SettlementReport,
  settlementReportUrl,
} from '../../api/settlement-manage';
import { useI18n } from '../../i18n/i18n';
import { formatMoney, formatMonth, recentMonths } from './format';

type Figures = SettlementReport['totals'];

/** "Reports": a month's settlements per doctor with the totals row, and the same as CSV / XLSX files. */
export function SettlementReports() {
  const { t, locale } = useI18n();
  const [, navigate] = useLocation();
  const months = recentMonths();
  const asked = new URLSearchParams(useSearch()).get('month');
  const month = asked && /^\d{4}-\d{2}$/.test(asked) ? asked : (months[0] as string);
  const report = useQuery({
    queryKey: settlementKeys.report(month),
    queryFn: () => fetchSettlementReport(month),
  });
  const money = (cents: number) => formatMoney(cents, locale);
  const cells = (f: Figures) => (
    <>
      <td>{f.settlementCount}</td>
      <td>{money(f.grossCents)}</td>
      <td>{money(f.feeCents)}</td>
      <td>{money(f.netCents)}</td>
      <td>{money(f.payableCents)}</td>
      <td>{money(f.paidCents)}</td>
      <td>{money(f.toRecoverCents)}</td>
    </>
  );
  const data = report.data;
  return (
    <section className="settlement-reports">
      <div className="report-controls">
        <label>
          {t('settlementAdmin.reports.month')}{' '}
          <select
            value={month}
            onChange={(event) => navigate(`/settlement?tab=reports&month=${event.target.value}`)}
          >
            {(months.includes(month) ? months : [month, ...months]).map((m) => (
              <option key={m} value={m}>
                {formatMonth(m, locale)}
              </option>
            ))}
          </select>
        </label>{' '}
        <a href={settlementReportUrl(month, 'csv', locale)} download>
          {t('settlementAdmin.reports.csv')}
        </a>{' '}
        <a href={settlementReportUrl(month, 'xlsx', locale)} download>
          {t('settlementAdmin.reports.xlsx')}
        </a>
      </div>
      {report.isError ? <p role="alert">{t('settlementAdmin.reports.loadFailed')}</p> : null}
      {report.isPending ? <p role="status">{t('table.loading')}</p> : null}
      {data && data.items.length === 0 ? <p>{t('settlementAdmin.reports.empty')}</p> : null}
      {data && data.items.length > 0 ? (
        <table aria-label={t('settlementAdmin.reports.title', { month: formatMonth(month, locale) })}>
          <thead>
            <tr>
              <th scope="col">{t('finance.columns.doctor')}</th>
              <th scope="col">{t('finance.columns.settlements')}</th>
              <th scope="col">{t('finance.columns.gross')}</th>
              <th scope="col">{t('finance.columns.fee')}</th>
              <th scope="col">{t('finance.columns.net')}</th>
              <th scope="col">{t('finance.columns.payable')}</th>
              <th scope="col">{t('settlementAdmin.reports.paid')}</th>
              <th scope="col">{t('finance.columns.toRecover')}</th>
            </tr>
          </thead>
          <tbody>
            {data.items.map((row) => (
              <tr key={row.professionalId}>
                <th scope="row">{row.professionalName}</th>
                {cells(row)}
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr data-testid="report-totals">
              <th scope="row">{t('settlementAdmin.reports.total')}</th>
              {cells(data.totals)}
            </tr>
          </tfoot>
        </table>
      ) : null}
    </section>
  );
}

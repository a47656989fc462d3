import { formatCents } from '../../../domain/money';
import type { StripeRowKind } from '../../../domain/sources/stripe-payouts';
import { useI18n } from '../../i18n/i18n';
import { pluralKey } from '../../i18n/plural';
import { formatDate } from '../../kernel/dates';
import type { PayoutSummary, SourcePreviewDetails } from './preview-protocol';
import { ROW_KIND_WORDS } from './source-words';

/** A payout report's payouts: each one's sums, its rows by kind, and whether its stated amount was checked. */
function Payouts({ details }: { details: Extract<SourcePreviewDetails, { kind: 'payouts' }> }) {
  const { t, locale } = useI18n();
  const money = (cents: number, payout: PayoutSummary) => formatCents(cents, locale, payout.currency);
  return (
    <section className="source-payouts" aria-labelledby="source-payouts-title" data-testid="source-payouts">
      <h3 id="source-payouts-title">
        {t('sources.payouts.title')} ·{' '}
        {t(
          pluralKey(locale, details.payoutCount, {
            one: 'sources.payouts.count.one',
            other: 'sources.payouts.count.other',
          }),
          { count: details.payoutCount },
        )}
      </h3>
      {details.payoutCount > details.payouts.length ? (
        <p>{t('sources.payouts.listedFirst', { shown: details.payouts.length })}</p>
      ) : null}
      {details.incomplete ? <p role="alert">{t('sources.payouts.incomplete')}</p> : null}
      <table className="statement-files-table">
        <thead>
          <tr>
            <th scope="col">{t('sources.payouts.columns.id')}</th>
            <th scope="col">{t('sources.payouts.columns.date')}</th>
            <th scope="col">{t('sources.payouts.columns.rows')}</th>
            <th scope="col">{t('sources.payouts.columns.gross')}</th>
            <th scope="col">{t('sources.payouts.columns.fee')}</th>
            <th scope="col">{t('sources.payouts.columns.net')}</th>
            <th scope="col">{t('sources.payouts.columns.kinds')}</th>
            <th scope="col">{t('sources.payouts.columns.checked')}</th>
          </tr>
        </thead>
        <tbody>
          {details.payouts.map((payout) => (
            <tr key={payout.id} data-payout={payout.id}>
              <td>{payout.id}</td>
              <td>{formatDate(payout.date, locale)}</td>
              <td>{payout.rows}</td>
              <td className="money">{money(payout.grossCents, payout)}</td>
              <td className="money">{money(payout.feeCents, payout)}</td>
              <td className="money">{money(payout.netCents, payout)}</td>
              <td>
                {(Object.entries(payout.byKind) as [StripeRowKind, { count: number; netCents: number }][])
                  .map(([kind, sum]) =>
                    t('sources.payouts.byKind', {
                      kind: t(ROW_KIND_WORDS[kind]),
                      count: sum.count,
                      net: money(sum.netCents, payout),
                    }),
                  )
                  .join('; ') || '—'}
              </td>
              <td data-checked={payout.amountChecked === true ? true : undefined}>
                {payout.amountChecked ? t('sources.payouts.checked') : t('sources.payouts.notStated')}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** The payouts Stripe's Balance report states: how many, their total, those no bank credit is due for. */
function StatedPayouts({ details }: { details: Extract<SourcePreviewDetails, { kind: 'statedPayouts' }> }) {
  const { t, locale } = useI18n();
  return (
    <section
      className="source-payouts"
      aria-labelledby="source-stated-title"
      data-testid="source-stated-payouts"
    >
      <h3 id="source-stated-title">
        {t('sources.stated.title')} ·{' '}
        {t(
          pluralKey(locale, details.payoutCount, {
            one: 'sources.payouts.count.one',
            other: 'sources.payouts.count.other',
          }),
          { count: details.payoutCount },
        )}
      </h3>
      <p>{t('sources.stated.total', { total: formatCents(details.totalCents, locale, 'EUR') })}</p>
      <p>{t('sources.stated.checks')}</p>
      {details.withdrawn > 0 ? (
        <p data-testid="source-withdrawn">{t('sources.stated.withdrawn', { count: details.withdrawn })}</p>
      ) : null}
      {details.otherRows > 0 ? <p>{t('sources.stated.otherRows', { count: details.otherRows })}</p> : null}
      {details.incomplete ? <p role="alert">{t('sources.payouts.incomplete')}</p> : null}
    </section>
  );
}

/** A SAF-T file's issuer and period, its documents, its control totals (checked) and its cancelled documents. */
function Invoices({ details }: { details: Extract<SourcePreviewDetails, { kind: 'invoices' }> }) {
  const { t, locale } = useI18n();
  const date = (value: string | null) => (value ? formatDate(value, locale) : '—');
  return (
    <section
      className="source-invoices"
      aria-labelledby="source-invoices-title"
      data-testid="source-invoices"
    >
      <h3 id="source-invoices-title">{t('sources.invoices.title')}</h3>
      <p>
        {t('sources.invoices.issuer', {
          name: details.companyName ?? '—',
          taxId: details.companyTaxId ?? '—',
          start: date(details.startDate),
          end: date(details.endDate),
          software: details.software ?? '—',
        })}
      </p>
      <p>{t('sources.invoices.container', { container: details.container.toUpperCase() })}</p>
      <p>
        {t('sources.invoices.counts', { documents: details.documents, creditNotes: details.creditNotes })}
      </p>
      <p data-testid="source-control-totals">
        {t('sources.invoices.control', {
          entries: details.numberOfEntries,
          debit: details.totalDebit,
          credit: details.totalCredit,
        })}
      </p>
      {details.cancelledCount > 0 ? (
        <details data-testid="source-cancelled">
          <summary>{t('sources.invoices.cancelled', { count: details.cancelledCount })}</summary>
          <ul>
            {details.cancelled.map((doc) => (
              <li key={`${doc.invoiceNo}|${doc.atcud}`}>
                {t('sources.invoices.cancelledEntry', {
                  invoiceNo: doc.invoiceNo,
                  type: doc.type,
                  date: formatDate(doc.date, locale),
                  amount: formatCents(doc.grossCents, locale, 'EUR'),
                  reason: doc.reason ?? '—',
                })}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </section>
  );
}

/** What the whole file says beside its rows: its payouts, the payouts it states, or its invoices' header and totals. */
export function PreviewSummary({ details }: { details: SourcePreviewDetails }) {
  if (details.kind === 'payouts') return <Payouts details={details} />;
  if (details.kind === 'statedPayouts') return <StatedPayouts details={details} />;
  return <Invoices details={details} />;
}

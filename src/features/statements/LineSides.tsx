import type { PayoutBreakdown, StatementLineRow } from '../../../contract/reconciliation';
import { formatCents } from '../../../domain/money';
import { useI18n } from '../../i18n/i18n';
import { pluralKey } from '../../i18n/plural';
import { formatDate } from '../../kernel/dates';

type AmountAndDate = { amountCents: number; date: string | null };

/** One side of the reconciliation table (payment provider, invoicing, SEPA): its sum and date, or "—". */
export function SideCell(props: { value: AmountAndDate | null; row: StatementLineRow; testId: string }) {
  const { t, locale } = useI18n();
  const { value, row } = props;
  if (!value) return <>—</>;
  return (
    <span
      data-testid={props.testId}
      data-differs={value.amountCents !== row.bankAmountCents || value.date !== row.bankDate || undefined}
      title={value.amountCents !== row.bankAmountCents ? t('statements.lines.differs') : undefined}
    >
      {formatCents(value.amountCents, locale, 'EUR')} · {formatDate(value.date, locale)}
    </span>
  );
}

/** What a payout deducted from its charges, each kind's words (written out: the locale test reads them). */
const DEDUCTIONS = {
  refunds: { one: 'statements.lines.payout.refunds.one', other: 'statements.lines.payout.refunds.other' },
  disputes: { one: 'statements.lines.payout.disputes.one', other: 'statements.lines.payout.disputes.other' },
} as const;

/**
 * The payment provider's side: the payout's net as today, then its fees and the refunds and disputes it
 * deducted, when it has any (decision 0156). A payout imported without its rows shows its sum alone.
 */
export function ProviderCell(props: { row: StatementLineRow }) {
  const { t, locale } = useI18n();
  const { row } = props;
  const breakdown = row.payoutBreakdown;
  const money = (cents: number) => formatCents(cents, locale, 'EUR');
  const deducted = (kind: keyof typeof DEDUCTIONS, rows: PayoutBreakdown['refunds']) =>
    rows.count > 0 && (
      <span className="line-side-part" data-testid={`provider-${kind}`}>
        {t(pluralKey(locale, rows.count, DEDUCTIONS[kind]), {
          count: rows.count,
          amount: money(rows.netCents),
        })}
      </span>
    );
  return (
    <>
      <SideCell value={row.provider} row={row} testId="provider" />
      {breakdown && breakdown.feeCents !== 0 && (
        <span className="line-side-part" data-testid="provider-fees">
          {t('statements.lines.payout.fees', { amount: money(breakdown.feeCents) })}
        </span>
      )}
      {breakdown && deducted('refunds', breakdown.refunds)}
      {breakdown && deducted('disputes', breakdown.disputes)}
    </>
  );
}

/**
 * The invoicing side: the invoices matched to the line as today; for a payout imported with its rows, the
 * invoices billing the settlements it paid (their sum) and, highlighted, how many it paid with none.
 */
export function InvoicingCell(props: { row: StatementLineRow }) {
  const { t, locale } = useI18n();
  const { row } = props;
  const breakdown = row.payoutBreakdown;
  if (!breakdown || row.invoicing) return <SideCell value={row.invoicing} row={row} testId="invoicing" />;
  const missing = breakdown.settlementsWithoutInvoice;
  return (
    <>
      <span
        data-testid="invoicing"
        title={t(
          pluralKey(locale, breakdown.invoicedSettlements, {
            one: 'statements.lines.payout.invoiced.one',
            other: 'statements.lines.payout.invoiced.other',
          }),
          { count: breakdown.invoicedSettlements },
        )}
      >
        {formatCents(breakdown.invoicedCents, locale, 'EUR')}
      </span>
      {missing > 0 && (
        <span className="line-side-part line-side-missing" data-testid="invoicing-missing" data-differs>
          {t(
            pluralKey(locale, missing, {
              one: 'statements.lines.payout.withoutInvoice.one',
              other: 'statements.lines.payout.withoutInvoice.other',
            }),
            { count: missing },
          )}
        </span>
      )}
    </>
  );
}

import { Link } from 'wouter';
import type { Dashboard } from '../../api/dashboard';
import { type Translate, useI18n } from '../../i18n/i18n';
import { pluralKey } from '../../i18n/plural';
import { useOptionalRouteLink } from '../../kernel/route-links';

type Attention = Dashboard['attention'];

/** One counter: what it counts, where its filtered list is, and the testid the e2e suites read. */
interface CardDef {
  id: string;
  /** What it counts, one form per plural category ("1 caso", "2 casos"). */
  label: { one: string; other: string };
  routeId: string;
  /** The list's filters, as its URL keeps them (some depend on the numbers: the month counted). */
  query?: string | ((a: Attention) => string);
  count(a: Attention): number;
  cents?(a: Attention): number | null;
  /** A line under the number in the card's words (the automation rate beside the lines it counts). */
  detail?(a: Attention, t: Translate, locale: string): string;
}

/**
 * "Automation rate 87 % of 1,000 lines imported": the month's automated lines (the card's number, what
 * its list totals) over the lines imported (decision 0147).
 */
function automationDetail(a: Attention, t: Translate, locale: string): string {
  const { imported, automated } = a.statementAutomation;
  if (imported === 0) return t('home.automationDetail.none');
  const rate = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 }).format(
    automated / imported,
  );
  return t(
    pluralKey(locale, imported, {
      one: 'home.automationDetail.rate.one',
      other: 'home.automationDetail.rate.other',
    }),
    {
      rate,
      imported: new Intl.NumberFormat(locale).format(imported),
    },
  );
}

const CARDS: readonly CardDef[] = [
  {
    id: 'to-verify',
    label: { one: 'home.toVerify.one', other: 'home.toVerify.other' },
    routeId: 'professionalsVerification',
    count: (a) => a.professionalsToVerify,
  },
  {
    id: 'disabled',
    label: { one: 'home.disabled.one', other: 'home.disabled.other' },
    routeId: 'professionalsDisabled',
    count: (a) => a.professionalsDisabled,
  },
  {
    id: 'waiting-payment',
    label: { one: 'home.waitingPayment.one', other: 'home.waitingPayment.other' },
    routeId: 'cases',
    query: 'status=WAITING_PAYMENT',
    count: (a) => a.casesWaitingPayment,
  },
  {
    id: 'settlements',
    label: { one: 'home.settlements.one', other: 'home.settlements.other' },
    routeId: 'settlement',
    query: 'status=READY_TO_SETTLE&status=AVAILABLE',
    count: (a) => a.settlementsToProcess.count,
    cents: (a) => a.settlementsToProcess.amountCents,
  },
  {
    id: 'sepa',
    label: { one: 'home.sepaAwaiting.one', other: 'home.sepaAwaiting.other' },
    routeId: 'sepa',
    query: 'tab=history&status=GENERATED&status=AVAILABLE',
    count: (a) => a.sepaFilesAwaitingBank.count,
    cents: (a) => a.sepaFilesAwaitingBank.amountCents,
  },
  {
    id: 'returns',
    label: { one: 'home.returnsToMatch.one', other: 'home.returnsToMatch.other' },
    routeId: 'statements',
    // The returns the bank sent that no one has matched or ignored yet.
    query: 'kind=return&status=UNMATCHED&status=SUGGESTED&status=DISCREPANCY',
    count: (a) => a.returnsToMatch.count,
    cents: (a) => a.returnsToMatch.amountCents,
  },
  {
    id: 'payouts-blocked',
    label: { one: 'home.payoutsBlocked.one', other: 'home.payoutsBlocked.other' },
    routeId: 'sepa',
    query: 'tab=blocked',
    count: (a) => a.doctorsPayoutsBlocked,
  },
  {
    id: 'unmatched',
    label: { one: 'home.unmatched.one', other: 'home.unmatched.other' },
    routeId: 'statements',
    query: 'status=UNMATCHED',
    count: (a) => a.statementLinesUnmatched.count,
    cents: (a) => a.statementLinesUnmatched.amountCents,
  },
  {
    id: 'not-invoiced',
    label: { one: 'home.notInvoiced.one', other: 'home.notInvoiced.other' },
    routeId: 'settlement',
    // Settlements the customer paid that no invoice of the invoicing program bills (decision 0155).
    query: 'tab=manage&customerInvoiced=false',
    count: (a) => a.settlementsNotInvoiced.count,
    cents: (a) => a.settlementsNotInvoiced.amountCents,
  },
  {
    id: 'invoices-unpaid',
    label: { one: 'home.invoicesUnpaid.one', other: 'home.invoicesUnpaid.other' },
    routeId: 'providerDocuments',
    query: 'kind=INVOICE&matched=false',
    count: (a) => a.invoicesWithoutPaidSettlement.count,
    cents: (a) => a.invoicesWithoutPaidSettlement.amountCents,
  },
  {
    id: 'automation',
    label: { one: 'home.automation.one', other: 'home.automation.other' },
    routeId: 'statements',
    // The lines of this month's statements matched without a decision taken line by line.
    query: (a) => `automatedMonth=${a.statementAutomation.month}`,
    count: (a) => a.statementAutomation.automated,
    detail: automationDetail,
  },
  {
    id: 'exports-failed',
    label: { one: 'home.exportsFailed.one', other: 'home.exportsFailed.other' },
    routeId: 'exportsFailed',
    count: (a) => a.exportsFailed,
  },
];

function Card({ card, attention }: { card: CardDef; attention: Attention | undefined }) {
  const { t, locale } = useI18n();
  const route = useOptionalRouteLink(card.routeId);
  const count = attention ? card.count(attention) : undefined;
  const cents = attention && card.cents ? card.cents(attention) : undefined;
  const detail = attention && card.detail ? card.detail(attention, t, locale) : undefined;
  const query = attention && typeof card.query === 'function' ? card.query(attention) : card.query;
  const body = (
    <>
      <span className="stat-value" data-testid={`count-${card.id}`}>
        {count === undefined ? '…' : new Intl.NumberFormat(locale).format(count)}
      </span>
      <span className="stat-label">{t(pluralKey(locale, count ?? 0, card.label))}</span>
      {cents !== undefined && cents !== null ? (
        <span className="stat-amount">
          {new Intl.NumberFormat(locale, { style: 'currency', currency: 'EUR' }).format(cents / 100)}
        </span>
      ) : null}
      {detail ? (
        <span className="stat-amount" data-testid={`detail-${card.id}`}>
          {detail}
        </span>
      ) : null}
      {route?.goKey ? <kbd className="stat-key">g {route.goKey}</kbd> : null}
    </>
  );
  if (!route) return <div className="stat-card">{body}</div>;
  return (
    <Link href={typeof query === 'string' ? `${route.path}?${query}` : route.path} className="stat-card">
      {body}
    </Link>
  );
}

/** "Needs attention": each counter a link to the list it counts. */
export function AttentionCards({ attention }: { attention: Attention | undefined }) {
  const { t } = useI18n();
  return (
    <section aria-labelledby="home-attention">
      <h2 id="home-attention">{t('home.attention')}</h2>
      <div className="stat-cards">
        {CARDS.map((card) => (
          <Card key={card.id} card={card} attention={attention} />
        ))}
      </div>
    </section>
  );
}

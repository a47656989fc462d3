import { Link } from 'wouter';
import type { Dashboard } from '../../api/dashboard';
import { useI18n } from '../../i18n/i18n';
import { pluralKey } from '../../i18n/plural';
import { useOptionalRouteLink } from '../../kernel/route-links';

type Attention = Dashboard['attention'];

/** One counter: what it counts, where its filtered list is, and the testid the e2e suites read. */
interface CardDef {
  id: string;
  /** What it counts, one form per plural category ("1 caso", "2 casos"). */
  label: { one: string; other: string };
  routeId: string;
  /** The list's filters, as its URL keeps them. */
  query?: string;
  count(a: Attention): number;
  cents?(a: Attention): number | null;
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
      {route?.goKey ? <kbd className="stat-key">g {route.goKey}</kbd> : null}
    </>
  );
  if (!route) return <div className="stat-card">{body}</div>;
  return (
    <Link href={card.query ? `${route.path}?${card.query}` : route.path} className="stat-card">
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

import './finance-messages';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { fetchProfessionalPayouts, sepaKeys } from '../../api/sepa';
import { useI18n } from '../../i18n/i18n';
import { formatDate } from '../../kernel/dates';
import { formatMoney, SETTLEMENT_STATUS_KEYS } from './format';
import { bankReason, SEPA_STATUS_KEYS } from './sepa-format';

/** The doctor's page (issue 11 item 9): settlements per status, transfers with links, block, recovery. */
export function DoctorPayouts({ professionalId }: { professionalId: string }) {
  const { t, locale } = useI18n();
  const { data } = useQuery({
    queryKey: sepaKeys.payouts(professionalId),
    queryFn: () => fetchProfessionalPayouts(professionalId),
  });
  if (!data) return null;
  return (
    <section className="user-section" aria-labelledby="doctor-payouts" data-testid="doctor-payouts">
      <h2 id="doctor-payouts">{t('sepa.payouts.title')}</h2>
      {data.payoutBlock ? (
        <p role="alert" data-testid="payout-block">
          {t('sepa.payouts.blocked', {
            reason: bankReason(t, data.payoutBlock.reasonCode, data.payoutBlock.reasonText),
            iban: data.payoutBlock.blockedIban,
          })}
        </p>
      ) : null}
      {data.recovery.amountCents > 0 ? (
        <p data-testid="payout-recovery">
          {t('sepa.payouts.recovery', {
            amount: formatMoney(data.recovery.amountCents, locale, data.currency),
          })}
        </p>
      ) : null}
      <h3>{t('sepa.payouts.settlements')}</h3>
      <ul>
        {data.settlements.map((s) => (
          <li key={s.status}>
            {t(SETTLEMENT_STATUS_KEYS[s.status])}: {s.count} —{' '}
            {formatMoney(s.payableCents, locale, data.currency)}
          </li>
        ))}
      </ul>
      <h3>{t('sepa.payouts.transfers')}</h3>
      {data.transfers.length === 0 ? <p>{t('sepa.payouts.none')}</p> : null}
      <ul>
        {data.transfers.map((tr) => (
          <li key={tr.endToEndId}>
            <Link href={`/sepa/${tr.sepaFileId}`}>{tr.msgId}</Link> ({t(SEPA_STATUS_KEYS[tr.fileStatus])},{' '}
            {formatDate(tr.executionDate, locale)}) — {formatMoney(tr.amountCents, locale, data.currency)}
            {tr.status === 'REJECTED'
              ? ` — ${t('sepa.transfer.rejected')}: ${bankReason(t, tr.rejection?.reasonCode ?? null, tr.rejection?.reasonText ?? null)}`
              : ''}
          </li>
        ))}
      </ul>
    </section>
  );
}

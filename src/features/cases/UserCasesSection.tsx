import { useMemo } from 'react';
import { Link } from 'wouter';
import { useI18n } from '../../i18n/i18n';
import { CasesTable } from './CasesTable';

/**
 * The single patient and doctor views' cases section: the shell puts it in the users feature's
 * `casesSlot`; the props (the user and which side of the case they are on) are the contract.
 */
export function UserCasesSection({ userId, role }: { userId: string; role: 'CUSTOMER' | 'PROFESSIONAL' }) {
  const { t } = useI18n();
  const param = role === 'PROFESSIONAL' ? 'professionalId' : 'customerId';
  const fixedFilters = useMemo(() => ({ [param]: [userId] }), [param, userId]);
  return (
    <section className="user-section" aria-labelledby="user-cases">
      <h2 id="user-cases">{t('users.sections.cases')}</h2>
      <CasesTable id={`user-cases-${role.toLowerCase()}`} fixedFilters={fixedFilters} collapseWhenEmpty />
      <Link href={`/cases?${param}=${encodeURIComponent(userId)}`}>{t('users.casesLink')}</Link>
    </section>
  );
}

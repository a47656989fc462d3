import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useEffect } from 'react';
import { Link, useLocation, useParams } from 'wouter';
import { attachmentUrl } from '../../api/attachments';
import { fetchUser, type StoredFile, type UserDetail, userKeys } from '../../api/users';
import { Pill } from '../../components/Pill/Pill';
import { errorCodeKey } from '../../i18n/error-codes';
import { genderedKey } from '../../i18n/gender';
import { useI18n } from '../../i18n/i18n';
import { languageKey } from '../../i18n/locales';
import { auditActionLabel, auditHistoryHref, useHistoryCommand } from '../../kernel/audit';
import { formatError } from '../../kernel/error-format';
import {
  formatDate,
  formatDateTime,
  formatMoney,
  GENDER_KEYS,
  statusKey,
  statusTone,
  userHref,
} from './format';
import { useUserActions } from './user-actions';

const MISSING_KEYS = {
  fullName: 'users.fields.fullName',
  taxNumber: 'users.fields.taxNumber',
  iban: 'users.fields.iban',
  collegeNumber: 'users.fields.collegeNumber',
} as const;

function Fields({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <dl className="user-fields">
      {rows.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value === null || value === undefined || value === '' ? '—' : value}</dd>
        </div>
      ))}
    </dl>
  );
}

function FileCard({ label, file }: { label: string; file: StoredFile | null }) {
  const { t } = useI18n();
  if (!file) return <p>{t('users.files.none', { label })}</p>;
  const url = attachmentUrl(file.id);
  return (
    <figure className="user-file">
      {file.contentType.startsWith('image/') ? <img src={url} alt={label} loading="lazy" /> : null}
      <figcaption>
        {label}:{' '}
        <a href={url} download={file.name}>
          {t('users.files.download', { name: file.name })}
        </a>
      </figcaption>
    </figure>
  );
}

function yesNo(t: (k: string) => string, value: boolean) {
  return value ? t('users.yes') : t('users.no');
}

/**
 * The cases section of the view, given by the shell (the cases feature draws it): the user and which
 * side of a case they are on.
 */
export type UserCasesSlot = (user: { id: string; role: 'CUSTOMER' | 'PROFESSIONAL' }) => ReactNode;

function Detail({ user, casesSlot }: { user: UserDetail; casesSlot?: UserCasesSlot | undefined }) {
  const { t, locale } = useI18n();
  const yn = (v: boolean) => yesNo(t, v);
  const professional = user.role === 'PROFESSIONAL';
  const missing = user.missingFields ?? [];
  // Only reasons worth a sentence have a translation (IBAN_NOT_SEPA); checksum errors just say "not valid".
  const ibanReason = user.bank.ibanError === null ? null : errorCodeKey(user.bank.ibanError);
  return (
    <>
      <section className="user-section" aria-labelledby="user-profile">
        <h2 id="user-profile">{t('users.sections.profile')}</h2>
        <Fields
          rows={[
            [t('users.fields.name'), user.name],
            [t('users.fields.fullName'), user.fullName],
            [t('users.fields.email'), user.email],
            [t('users.fields.status'), t(genderedKey(statusKey(user.status, user.role), user.gender))],
            [t('users.fields.gender'), user.gender ? t(GENDER_KEYS[user.gender]) : null],
            [t('users.fields.country'), user.country],
            [t('users.fields.birthDate'), user.birthDate ? formatDate(user.birthDate, locale) : null],
            [t('users.fields.locale'), t(languageKey(user.locale))],
            [t('users.fields.phoneNumberCountryCode'), user.phoneNumberCountryCode],
            [t('users.fields.phoneNumber'), user.phoneNumber],
            [t('users.fields.idCardNumber'), user.idCardNumber],
            [t('users.fields.taxNumber'), user.taxNumber],
            [t(genderedKey('users.fields.userDisabled', user.gender)), yn(user.userDisabled)],
            [t('users.fields.emailVerified'), yn(user.emailVerified)],
            [t(genderedKey('users.fields.professionalVerified', user.gender)), yn(user.professionalVerified)],
            [t('users.fields.referralName'), user.referralName],
            [t('users.fields.created'), formatDateTime(user.created, locale)],
            [t('users.fields.lastActive'), formatDateTime(user.lastActive, locale)],
          ]}
        />
      </section>
      {professional ? (
        <section className="user-section" aria-labelledby="user-professional">
          <h2 id="user-professional">{t('users.sections.professional')}</h2>
          <Fields
            rows={[
              [t('users.fields.collegeNumber'), user.collegeNumber],
              [t('users.fields.casePrice'), formatMoney(user.casePriceCents, user.caseCurrency, locale)],
              [t('users.fields.caseCurrency'), user.caseCurrency],
              [
                t('users.fields.subscriptionPrice'),
                formatMoney(user.subscriptionPriceCents, user.subscriptionCurrency, locale),
              ],
              [t('users.fields.subscriptionCurrency'), user.subscriptionCurrency],
              [t('users.fields.currentWorkplaces'), user.currentWorkplaces.join(', ')],
              [t('users.fields.specialities'), user.specialities.join(', ')],
              [t('users.fields.areasOfInterest'), user.areasOfInterest.map((a) => a.name).join(', ')],
              [t('users.fields.professionalBackground'), user.professionalBackground],
              [
                t('users.fields.associationLink'),
                user.associationLink ? (
                  <a key="link" href={user.associationLink} target="_blank" rel="noreferrer noopener">
                    {user.associationLink}
                  </a>
                ) : null,
              ],
            ]}
          />
          <h3>{t('users.sections.files')}</h3>
          <div className="user-files">
            <FileCard label={t('users.fields.collegeCardFrontFile')} file={user.collegeCardFrontFile} />
            <FileCard label={t('users.fields.collegeCardBackFile')} file={user.collegeCardBackFile} />
          </div>
        </section>
      ) : null}
      <section className="user-section" aria-labelledby="user-share">
        <h2 id="user-share">{t('users.sections.shareLink')}</h2>
        <Fields
          rows={[
            [t('users.fields.shareLinkId'), user.shareLinkId],
            ...(user.shareLink
              ? ([
                  [t('users.shareLink.visits'), user.shareLink.visits],
                  [t('users.shareLink.signups'), user.shareLink.signups],
                  [t('users.shareLink.cases'), user.shareLink.cases],
                ] as [string, ReactNode][])
              : []),
          ]}
        />
      </section>
      {professional ? (
        <section className="user-section" aria-labelledby="user-bank">
          <h2 id="user-bank">{t('users.sections.bank')}</h2>
          <Fields
            rows={[
              [t('users.fields.iban'), user.bank.iban],
              [
                t('users.bank.ibanValidity'),
                <span key="v" className={user.bank.ibanValid ? 'text-success' : 'text-danger'}>
                  {user.bank.ibanValid ? t('users.bank.valid') : t('users.bank.invalid')}
                  {ibanReason ? <span className="user-iban-reason">{` — ${t(ibanReason)}`}</span> : null}
                </span>,
              ],
              [t('users.fields.bicSwift'), user.bank.bicSwift],
            ]}
          />
          {missing.length > 0 ? (
            <div className="user-missing" role="note">
              <p>{t('errorMessages.PROFESSIONAL_MISSING_DATA')}</p>
              <ul aria-label={t('users.bank.missing')}>
                {missing.map((field) => (
                  <li key={field}>{t(MISSING_KEYS[field])}</li>
                ))}
              </ul>
            </div>
          ) : null}
        </section>
      ) : null}
      {casesSlot?.({ id: user.id, role: professional ? 'PROFESSIONAL' : 'CUSTOMER' })}
      <section className="user-section" aria-labelledby="user-audit">
        <h2 id="user-audit">{t('users.sections.audit')}</h2>
        <Link href={auditHistoryHref('user', user.id)}>{t('users.audit.all')}</Link>
        {user.adminActions.length === 0 ? (
          <p>{t('users.audit.none')}</p>
        ) : (
          <table className="user-audit">
            <thead>
              <tr>
                <th scope="col">{t('users.audit.at')}</th>
                <th scope="col">{t('users.audit.action')}</th>
                <th scope="col">{t('users.audit.actor')}</th>
              </tr>
            </thead>
            <tbody>
              {user.adminActions.map((entry) => (
                <tr key={entry.id}>
                  <td>{formatDateTime(entry.at, locale)}</td>
                  <td>{auditActionLabel(t, entry.action)}</td>
                  <td>{entry.actor ? `${entry.actor.name} <${entry.actor.email}>` : '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </>
  );
}

/** `/customers/:id` and `/professionals/:id` (the shell wraps it to give it the cases section). */
export default function UserScreen({ casesSlot }: { casesSlot?: UserCasesSlot }) {
  const { t } = useI18n();
  const { id = '' } = useParams<{ id: string }>();
  const {
    data: user,
    isPending,
    error,
  } = useQuery({ queryKey: userKeys.detail(id), queryFn: () => fetchUser(id), meta: { inlineError: true } });
  const { actions, dialog } = useUserActions(user);
  useHistoryCommand(t, 'user', user?.id, 'palette.userHistory', 'palette.groups.user');
  // A patient's id under /professionals (or a doctor's under /customers) moves, once the user is known,
  // to the route of their role, replacing the wrong entry in the history (DESIGN): never drawn under it.
  const [location, navigate] = useLocation();
  const home = user ? userHref(user) : null;
  const misplaced = home !== null && home !== location;
  useEffect(() => {
    if (misplaced && home) navigate(home, { replace: true });
  }, [misplaced, home, navigate]);

  if (isPending || misplaced) return <p role="status">{t('table.loading')}</p>;
  if (error || !user)
    return (
      <p className="screen-error" role="alert">
        {error ? formatError(error, t).message : t('errorMessages.NOT_FOUND')}
      </p>
    );
  return (
    <div className="user-view">
      <header className="user-header">
        <h2 className="user-name">{user.fullName ?? user.name}</h2>
        <Pill tone={statusTone(user.status, user.role)} testId="user-status">
          {t(genderedKey(statusKey(user.status, user.role), user.gender))}
        </Pill>
        <div className="user-actions">
          {actions.map((a) => (
            <button key={a.id} type="button" onClick={a.run}>
              {a.label}
            </button>
          ))}
        </div>
      </header>
      <Detail user={user} casesSlot={casesSlot} />
      {dialog}
    </div>
  );
}

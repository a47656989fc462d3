import type { Role, UserStatus } from '../../api/users';

const STATUS_KEYS: Record<UserStatus, string> = {
  NEW_USER: 'users.status.NEW_USER',
  EMAIL_VERIFIED: 'users.status.EMAIL_VERIFIED',
  PROFESSIONAL_VERIFIED: 'users.status.PROFESSIONAL_VERIFIED',
  DISABLED: 'users.status.DISABLED',
};

/** A patient with a verified e-mail is simply active; only a doctor then waits for verification. */
export const statusKey = (status: UserStatus, role: Role) =>
  status === 'EMAIL_VERIFIED' && role === 'PROFESSIONAL'
    ? 'users.status.awaitingVerification'
    : STATUS_KEYS[status];

export const GENDER_KEYS: Record<'male' | 'female', string> = {
  male: 'users.gender.male',
  female: 'users.gender.female',
};

// Building an Intl formatter costs ~0.1 ms (much more on a cold page); a table formats two dates per
// row on every render, so each locale's formatter is built once.
const formatters = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat>();
function formatter<T extends Intl.DateTimeFormat | Intl.NumberFormat>(key: string, build: () => T): T {
  let found = formatters.get(key) as T | undefined;
  if (!found) {
    found = build();
    formatters.set(key, found);
  }
  return found;
}

export const formatDate = (iso: string | null, locale: string) =>
  iso
    ? formatter(`date ${locale}`, () => new Intl.DateTimeFormat(locale, { dateStyle: 'medium' })).format(
        new Date(iso),
      )
    : '—';

export const formatDateTime = (iso: string | null, locale: string) =>
  iso
    ? formatter(
        `datetime ${locale}`,
        () => new Intl.DateTimeFormat(locale, { dateStyle: 'short', timeStyle: 'short' }),
      ).format(new Date(iso))
    : '—';

export const formatMoney = (cents: number | null, currency: string, locale: string) =>
  cents === null
    ? '—'
    : formatter(
        `money ${locale} ${currency}`,
        () => new Intl.NumberFormat(locale, { style: 'currency', currency }),
      ).format(cents / 100);

/** Where a user's page lives: patients and doctors have their own routes. */
export const userHref = (user: { id: string; role: string }) =>
  user.role === 'PROFESSIONAL' ? `/professionals/${user.id}` : `/customers/${user.id}`;

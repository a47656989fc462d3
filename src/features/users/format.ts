import type { Role, UserStatus } from '../../api/users';
import type { Tone } from '../../components/Pill/Pill';

const STATUS_KEYS: Record<UserStatus, string> = {
  NEW_USER: 'users.status.NEW_USER',
  EMAIL_VERIFIED: 'users.status.EMAIL_VERIFIED',
  PROFESSIONAL_VERIFIED: 'users.status.PROFESSIONAL_VERIFIED',
  DISABLED: 'users.status.DISABLED',
};

/** A doctor with a verified e-mail waits for the admin; a patient with one is simply active. */
export const statusTone = (status: UserStatus, role: Role): Tone =>
  status === 'DISABLED'
    ? 'danger'
    : status === 'PROFESSIONAL_VERIFIED' || (status === 'EMAIL_VERIFIED' && role !== 'PROFESSIONAL')
      ? 'success'
      : status === 'EMAIL_VERIFIED'
        ? 'waiting'
        : 'neutral';

/** A patient with a verified e-mail is simply active; only a doctor then waits for verification. */
export const statusKey = (status: UserStatus, role: Role) =>
  status === 'EMAIL_VERIFIED' && role === 'PROFESSIONAL'
    ? 'users.status.awaitingVerification'
    : STATUS_KEYS[status];

export const GENDER_KEYS: Record<'male' | 'female', string> = {
  male: 'users.gender.male',
  female: 'users.gender.female',
};

// Building an Intl formatter costs ~0.1 ms (much more on a cold page): each locale's is built once.
const formatters = new Map<string, Intl.NumberFormat>();
function formatter<T extends Intl.NumberFormat>(key: string, build: () => T): T {
  let found = formatters.get(key) as T | undefined;
  if (!found) {
    found = build();
    formatters.set(key, found);
  }
  return found;
}

export { formatDate, formatDateTime } from '../../kernel/dates';

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

import type { CaseStatus, CaseType } from '../../../domain/case-status';
import { formatCents } from '../../../domain/money';
import type { Tone } from '../../components/Pill/Pill';

/** Literal keys, so the locale test sees every status and type label in use. */
export const CASE_STATUS_KEYS: Record<CaseStatus, string> = {
  CREATED: 'cases.status.CREATED',
  FREE: 'cases.status.FREE',
  ACCEPTED: 'cases.status.ACCEPTED',
  WAITING_PAYMENT: 'cases.status.WAITING_PAYMENT',
  PAID: 'cases.status.PAID',
  CLOSED_BY_PROFESSIONAL: 'cases.status.CLOSED_BY_PROFESSIONAL',
  CLOSED_REJECTED: 'cases.status.CLOSED_REJECTED',
  CLOSED_NOT_ANSWERED: 'cases.status.CLOSED_NOT_ANSWERED',
  CLOSED_NOT_PAID: 'cases.status.CLOSED_NOT_PAID',
  CLOSED_LIFETIME: 'cases.status.CLOSED_LIFETIME',
  CLOSED_BY_ADMIN: 'cases.status.CLOSED_BY_ADMIN',
  CLOSED_EXPIRED: 'cases.status.CLOSED_EXPIRED',
};

/** What each case status means to the admin (issue 14: pills coloured by meaning). */
export const CASE_STATUS_TONES: Record<CaseStatus, Tone> = {
  CREATED: 'waiting',
  FREE: 'success',
  ACCEPTED: 'success',
  WAITING_PAYMENT: 'waiting',
  PAID: 'success',
  CLOSED_BY_PROFESSIONAL: 'neutral',
  CLOSED_REJECTED: 'danger',
  CLOSED_NOT_ANSWERED: 'danger',
  CLOSED_NOT_PAID: 'danger',
  CLOSED_LIFETIME: 'neutral',
  CLOSED_BY_ADMIN: 'danger',
  CLOSED_EXPIRED: 'neutral',
};

export const CASE_TYPE_KEYS: Record<CaseType, string> = {
  SINGLE_CASE: 'cases.type.SINGLE_CASE',
  SUBSCRIPTION: 'cases.type.SUBSCRIPTION',
};

export { formatDate, formatDateTime } from '../../kernel/dates';

/** `75` → `1:15`, `3725` → `1:02:05`: a clock reading, the same in both languages. */
export function formatDuration(totalSeconds: number): string {
  const whole = Math.max(0, Math.round(totalSeconds));
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const seconds = String(whole % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}

export const formatPrice = (cents: number, currency: string, locale: string) =>
  formatCents(cents, locale, currency);

/** Binary units, one decimal: enough to tell a 40 MB file from a 40 kB one. */
export function formatBytes(bytes: number, locale: string): string {
  const units = ['byte', 'kilobyte', 'megabyte', 'gigabyte'] as const;
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return new Intl.NumberFormat(locale, {
    style: 'unit',
    unit: units[unit],
    unitDisplay: 'short',
    maximumFractionDigits: unit === 0 ? 0 : 1,
  }).format(value);
}

export const shortId = (id: string) => id.slice(0, 8);

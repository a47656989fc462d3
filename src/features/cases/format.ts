import type { CaseStatus, CaseType } from '../../../domain/case-status';
import { formatCents } from '../../../domain/money';

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

export const CASE_TYPE_KEYS: Record<CaseType, string> = {
  SINGLE_CASE: 'cases.type.SINGLE_CASE',
  SUBSCRIPTION: 'cases.type.SUBSCRIPTION',
};

// The business runs on Lisbon time (DESIGN §5); every operator reads the same wall clock.
const TIME_ZONE = 'Europe/Lisbon';
const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();
const dateFormats = new Map<string, Intl.DateTimeFormat>();

function cached(
  cache: Map<string, Intl.DateTimeFormat>,
  locale: string,
  options: Intl.DateTimeFormatOptions,
) {
  let format = cache.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { ...options, timeZone: TIME_ZONE });
    cache.set(locale, format);
  }
  return format;
}

export const formatDateTime = (iso: string, locale: string) =>
  cached(dateTimeFormats, locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

export const formatDate = (iso: string, locale: string) =>
  cached(dateFormats, locale, { dateStyle: 'medium' }).format(new Date(iso));

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

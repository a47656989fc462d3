import type { MissingField } from '../../../contract/statuses';
import { formatCents } from '../../../domain/money';
import type { SettlementStatus } from '../../../domain/settlement-status';
import type { Tone } from '../../components/Pill/Pill';

export const formatMoney = (cents: number, locale: string, currency = 'EUR') =>
  formatCents(cents, locale, currency);

export const SETTLEMENT_STATUS_KEYS: Record<SettlementStatus, string> = {
  READY_TO_SETTLE: 'finance.status.READY_TO_SETTLE',
  AVAILABLE: 'finance.status.AVAILABLE',
  SETTLED: 'finance.status.SETTLED',
  PENDING_TRANSFER: 'finance.status.PENDING_TRANSFER',
  PAID: 'finance.status.PAID',
  REFUNDED: 'finance.status.REFUNDED',
  REFUNDED_PAID: 'finance.status.REFUNDED_PAID',
};

/** What each settlement status means to the admin (issue 14: pills coloured by meaning). */
export const SETTLEMENT_STATUS_TONES: Record<SettlementStatus, Tone> = {
  READY_TO_SETTLE: 'neutral',
  AVAILABLE: 'waiting',
  SETTLED: 'waiting',
  PENDING_TRANSFER: 'waiting',
  PAID: 'success',
  REFUNDED: 'danger',
  REFUNDED_PAID: 'danger',
};

/** DESIGN §6: what a doctor needs to be settled or paid. */
export const MISSING_FIELD_KEYS: Record<MissingField, string> = {
  fullName: 'finance.missingFields.fullName',
  taxNumber: 'finance.missingFields.taxNumber',
  iban: 'finance.missingFields.iban',
  collegeNumber: 'finance.missingFields.collegeNumber',
};

export const shortId = (id: string) => id.slice(0, 8);

/** `2026-10` → "October 2026" / "outubro de 2026", read as a calendar month (no time zone shift). */
export function formatMonth(month: string, locale: string): string {
  const [year, monthNumber] = month.split('-').map(Number);
  if (!year || !monthNumber) return month;
  return new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    Date.UTC(year, monthNumber - 1, 1),
  );
}

/** The reference months offered in pickers: this month (Europe/Lisbon) and the 23 before it, newest first. */
export function recentMonths(now = new Date(), count = 24): string[] {
  const [year, month] = new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Europe/Lisbon',
    year: 'numeric',
    month: '2-digit',
  })
    .format(now)
    .split('-')
    .map(Number) as [number, number];
  return Array.from({ length: count }, (_, i) => {
    const index = year * 12 + (month - 1) - i;
    return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
  });
}

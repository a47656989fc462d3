import type { SettlementEvent } from './settlement-status';

// DESIGN.md §6 SEPA file transitions and what each does to the file's settlements.

export const SEPA_STATUSES = ['GENERATED', 'AVAILABLE', 'PAID', 'UNAVAILABLE'] as const;
export type SepaStatus = (typeof SEPA_STATUSES)[number];

export type SepaEvent = 'HANDED_TO_BANK' | 'PAID' | 'REJECTED';

const TABLE: Record<SepaStatus, Partial<Record<SepaEvent, SepaStatus>>> = {
  GENERATED: { HANDED_TO_BANK: 'AVAILABLE', PAID: 'PAID', REJECTED: 'UNAVAILABLE' },
  AVAILABLE: { PAID: 'PAID', REJECTED: 'UNAVAILABLE' },
  PAID: {},
  UNAVAILABLE: {},
};

export function nextSepaStatus(from: SepaStatus, event: SepaEvent): SepaStatus | null {
  return TABLE[from][event] ?? null;
}

export function canTransitionSepa(from: SepaStatus, event: SepaEvent): boolean {
  return nextSepaStatus(from, event) !== null;
}

/** Downloads only while GENERATED, so a file already handed to the bank is never sent twice. */
export function canDownloadSepa(status: SepaStatus): boolean {
  return status === 'GENERATED';
}

export function canDeleteSepa(status: SepaStatus): boolean {
  return status === 'GENERATED';
}

/** The settlement event a SEPA change causes for every settlement in the file (deleting included). */
export function settlementEventFor(change: SepaEvent | 'DELETED'): SettlementEvent | null {
  if (change === 'PAID') return 'SEPA_PAID';
  if (change === 'REJECTED') return 'SEPA_UNAVAILABLE';
  if (change === 'DELETED') return 'SEPA_DELETED';
  return null;
}

// DESIGN.md §6 settlement transitions. Guards that need data (missing professional fields, funds
// released) are checked by the caller; this table only says which moves exist.

export const SETTLEMENT_STATUSES = [
  'READY_TO_SETTLE',
  'AVAILABLE',
  'SETTLED',
  'PENDING_TRANSFER',
  'PAID',
  'REFUNDED',
  'REFUNDED_PAID',
] as const;
export type SettlementStatus = (typeof SETTLEMENT_STATUSES)[number];

export type SettlementEvent =
  | 'FUNDS_RELEASED'
  | 'CONFIRM'
  | 'INCLUDED_IN_SEPA'
  | 'SEPA_PAID'
  | 'SEPA_DELETED'
  | 'SEPA_UNAVAILABLE'
  | 'CUSTOMER_REFUNDED';

const TABLE: Record<SettlementStatus, Partial<Record<SettlementEvent, SettlementStatus>>> = {
  READY_TO_SETTLE: { FUNDS_RELEASED: 'AVAILABLE', CONFIRM: 'SETTLED', CUSTOMER_REFUNDED: 'REFUNDED' },
  AVAILABLE: { CONFIRM: 'SETTLED', CUSTOMER_REFUNDED: 'REFUNDED' },
  SETTLED: { INCLUDED_IN_SEPA: 'PENDING_TRANSFER', CUSTOMER_REFUNDED: 'REFUNDED' },
  PENDING_TRANSFER: { SEPA_PAID: 'PAID', SEPA_DELETED: 'SETTLED', SEPA_UNAVAILABLE: 'SETTLED' },
  PAID: { CUSTOMER_REFUNDED: 'REFUNDED_PAID' },
  REFUNDED: {},
  REFUNDED_PAID: {},
};

export function nextSettlementStatus(
  from: SettlementStatus,
  event: SettlementEvent,
): SettlementStatus | null {
  return TABLE[from][event] ?? null;
}

export function canTransitionSettlement(from: SettlementStatus, event: SettlementEvent): boolean {
  return nextSettlementStatus(from, event) !== null;
}

/** Deleting a settlement is allowed before PENDING_TRANSFER only. */
export function canDeleteSettlement(status: SettlementStatus): boolean {
  return status === 'READY_TO_SETTLE' || status === 'AVAILABLE' || status === 'SETTLED';
}

/**
 * The payout amount (adjustment) and the invoice's figures may change while the money has not left
 * for the bank: before PENDING_TRANSFER, like deleting.
 */
export const canAdjustSettlement = canDeleteSettlement;

/** What a customer's refund makes of a settlement: REFUNDED before payout, REFUNDED_PAID after; null if never. */
export const refundedSettlementStatus = (from: SettlementStatus): SettlementStatus | null =>
  nextSettlementStatus(from, 'CUSTOMER_REFUNDED');

/** The statuses an admin can confirm (READY_TO_SETTLE, AVAILABLE). */
export const CONFIRMABLE_SETTLEMENT_STATUSES: readonly SettlementStatus[] = SETTLEMENT_STATUSES.filter(
  (status) => canTransitionSettlement(status, 'CONFIRM'),
);

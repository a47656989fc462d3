// DESIGN.md §6 settlement transitions: every move the product makes, by event (event → from → to).
// Guards that need data (missing professional fields, funds released) are checked by the caller; this
// table only says which moves exist. The server makes them in one place, server/finance/ledger.ts.

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
  /** The bank's pain.002 rejected the settlement's transfer before payment. */
  | 'TRANSFER_REJECTED'
  /** A statement line returned the transfer's money, before or after the file was paid. */
  | 'TRANSFER_RETURNED'
  /** That return unmatched while its file still waits for the bank: back in the file. */
  | 'RETURN_UNDONE'
  /** That return unmatched after its file was paid: paid with it. */
  | 'RETURN_UNDONE_IN_PAID_FILE'
  /** The statement line that paid the file unmatched: the file waits for the bank again. */
  | 'SEPA_PAID_UNDONE'
  | 'CUSTOMER_REFUNDED';

const TABLE: Record<SettlementStatus, Partial<Record<SettlementEvent, SettlementStatus>>> = {
  READY_TO_SETTLE: { FUNDS_RELEASED: 'AVAILABLE', CONFIRM: 'SETTLED', CUSTOMER_REFUNDED: 'REFUNDED' },
  AVAILABLE: { CONFIRM: 'SETTLED', CUSTOMER_REFUNDED: 'REFUNDED' },
  SETTLED: {
    INCLUDED_IN_SEPA: 'PENDING_TRANSFER',
    RETURN_UNDONE: 'PENDING_TRANSFER',
    RETURN_UNDONE_IN_PAID_FILE: 'PAID',
    CUSTOMER_REFUNDED: 'REFUNDED',
  },
  PENDING_TRANSFER: {
    SEPA_PAID: 'PAID',
    SEPA_DELETED: 'SETTLED',
    SEPA_UNAVAILABLE: 'SETTLED',
    TRANSFER_REJECTED: 'SETTLED',
    TRANSFER_RETURNED: 'SETTLED',
  },
  PAID: {
    TRANSFER_RETURNED: 'SETTLED',
    SEPA_PAID_UNDONE: 'PENDING_TRANSFER',
    CUSTOMER_REFUNDED: 'REFUNDED_PAID',
  },
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

import { describe, expect, it } from 'vitest';
import {
  canDeleteSepa,
  canDownloadSepa,
  nextSepaStatus,
  SEPA_STATUSES,
  settlementEventFor,
} from '../../../domain/sepa-status';
import {
  canDeleteSettlement,
  nextSettlementStatus,
  SETTLEMENT_STATUSES,
} from '../../../domain/settlement-status';

describe('settlement transitions (DESIGN.md §6)', () => {
  it('follows the table', () => {
    expect(nextSettlementStatus('READY_TO_SETTLE', 'FUNDS_RELEASED')).toBe('AVAILABLE');
    expect(nextSettlementStatus('READY_TO_SETTLE', 'CONFIRM')).toBe('SETTLED');
    expect(nextSettlementStatus('AVAILABLE', 'CONFIRM')).toBe('SETTLED');
    expect(nextSettlementStatus('SETTLED', 'INCLUDED_IN_SEPA')).toBe('PENDING_TRANSFER');
    expect(nextSettlementStatus('PENDING_TRANSFER', 'SEPA_PAID')).toBe('PAID');
    expect(nextSettlementStatus('PENDING_TRANSFER', 'SEPA_DELETED')).toBe('SETTLED');
    expect(nextSettlementStatus('SETTLED', 'CUSTOMER_REFUNDED')).toBe('REFUNDED');
    expect(nextSettlementStatus('PAID', 'CUSTOMER_REFUNDED')).toBe('REFUNDED_PAID');
  });

  it('lists the moves a transfer rejected or returned, and their undoing, make (issue 30)', () => {
    expect(nextSettlementStatus('PENDING_TRANSFER', 'TRANSFER_REJECTED')).toBe('SETTLED');
    expect(nextSettlementStatus('PENDING_TRANSFER', 'TRANSFER_RETURNED')).toBe('SETTLED');
    expect(nextSettlementStatus('PAID', 'TRANSFER_RETURNED')).toBe('SETTLED');
    expect(nextSettlementStatus('SETTLED', 'RETURN_UNDONE')).toBe('PENDING_TRANSFER');
    expect(nextSettlementStatus('SETTLED', 'RETURN_UNDONE_IN_PAID_FILE')).toBe('PAID');
    expect(nextSettlementStatus('PAID', 'SEPA_PAID_UNDONE')).toBe('PENDING_TRANSFER');
    // A pain.002 comes before payment only; a paid file's payment undone never leaves it SETTLED.
    expect(nextSettlementStatus('PAID', 'TRANSFER_REJECTED')).toBeNull();
    expect(nextSettlementStatus('PENDING_TRANSFER', 'SEPA_PAID_UNDONE')).toBeNull();
    expect(nextSettlementStatus('READY_TO_SETTLE', 'RETURN_UNDONE')).toBeNull();
  });

  it('refuses moves the table does not have', () => {
    expect(nextSettlementStatus('PENDING_TRANSFER', 'CUSTOMER_REFUNDED')).toBeNull();
    expect(nextSettlementStatus('PAID', 'CONFIRM')).toBeNull();
    expect(nextSettlementStatus('READY_TO_SETTLE', 'INCLUDED_IN_SEPA')).toBeNull();
    expect(nextSettlementStatus('REFUNDED', 'CONFIRM')).toBeNull();
  });

  it('allows deletion before PENDING_TRANSFER only', () => {
    expect(SETTLEMENT_STATUSES.filter(canDeleteSettlement)).toEqual([
      'READY_TO_SETTLE',
      'AVAILABLE',
      'SETTLED',
    ]);
  });
});

describe('SEPA transitions (DESIGN.md §6)', () => {
  it('follows the table', () => {
    expect(nextSepaStatus('GENERATED', 'HANDED_TO_BANK')).toBe('AVAILABLE');
    expect(nextSepaStatus('AVAILABLE', 'PAID')).toBe('PAID');
    expect(nextSepaStatus('GENERATED', 'REJECTED')).toBe('UNAVAILABLE');
    expect(nextSepaStatus('PAID', 'REJECTED')).toBeNull();
    expect(nextSepaStatus('AVAILABLE', 'HANDED_TO_BANK')).toBeNull();
  });

  it('downloads and deletes while GENERATED only', () => {
    expect(SEPA_STATUSES.filter(canDownloadSepa)).toEqual(['GENERATED']);
    expect(SEPA_STATUSES.filter(canDeleteSepa)).toEqual(['GENERATED']);
  });

  it('tells what happens to the settlements', () => {
    expect(settlementEventFor('PAID')).toBe('SEPA_PAID');
    expect(settlementEventFor('DELETED')).toBe('SEPA_DELETED');
    expect(settlementEventFor('REJECTED')).toBe('SEPA_UNAVAILABLE');
    expect(nextSettlementStatus('PENDING_TRANSFER', settlementEventFor('REJECTED')!)).toBe('SETTLED');
    expect(settlementEventFor('HANDED_TO_BANK')).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import {
  CASE_STATUSES,
  type CaseEvent,
  caseTransitionRefusal,
  isClosedCaseStatus,
  nextCaseStatus,
  OPEN_CASE_STATUSES,
} from '../../../domain/case-status';

const EVENTS: CaseEvent[] = [
  'ACCEPT',
  'ACCEPT_FREE',
  'REJECT',
  'NOT_ANSWERED',
  'REQUEST_PAYMENT',
  'PAY',
  'PAYMENT_TIMEOUT',
  'PROFESSIONAL_CLOSE',
  'LIFETIME_ENDED',
  'SUBSCRIPTION_EXPIRED',
  'ADMIN_CLOSE',
];

describe('case status transitions', () => {
  it('knows the specification statuses plus CLOSED_EXPIRED, five of them open', () => {
    expect(CASE_STATUSES).toHaveLength(12);
    expect(OPEN_CASE_STATUSES).toEqual(['CREATED', 'FREE', 'ACCEPTED', 'WAITING_PAYMENT', 'PAID']);
  });

  it('lets an admin close every open case, always into CLOSED_BY_ADMIN', () => {
    for (const status of OPEN_CASE_STATUSES)
      expect(nextCaseStatus(status, 'ADMIN_CLOSE')).toBe('CLOSED_BY_ADMIN');
  });

  it('never leaves a closed status, and says so with CASE_ALREADY_CLOSED', () => {
    for (const status of CASE_STATUSES.filter(isClosedCaseStatus))
      for (const event of EVENTS) {
        expect(nextCaseStatus(status, event)).toBeNull();
        expect(caseTransitionRefusal(status, event)).toBe('CASE_ALREADY_CLOSED');
      }
  });

  it('follows the lifecycle of a paid case', () => {
    expect(nextCaseStatus('CREATED', 'ACCEPT')).toBe('ACCEPTED');
    expect(nextCaseStatus('ACCEPTED', 'REQUEST_PAYMENT')).toBe('WAITING_PAYMENT');
    expect(nextCaseStatus('WAITING_PAYMENT', 'PAY')).toBe('PAID');
    expect(nextCaseStatus('PAID', 'PROFESSIONAL_CLOSE')).toBe('CLOSED_BY_PROFESSIONAL');
    expect(nextCaseStatus('PAID', 'LIFETIME_ENDED')).toBe('CLOSED_LIFETIME');
    expect(nextCaseStatus('WAITING_PAYMENT', 'PAYMENT_TIMEOUT')).toBe('CLOSED_NOT_PAID');
    expect(nextCaseStatus('CREATED', 'REJECT')).toBe('CLOSED_REJECTED');
    expect(nextCaseStatus('CREATED', 'NOT_ANSWERED')).toBe('CLOSED_NOT_ANSWERED');
  });

  it('refuses moves the table does not have on open cases with CASE_TRANSITION_NOT_ALLOWED', () => {
    expect(nextCaseStatus('CREATED', 'PAY')).toBeNull();
    expect(caseTransitionRefusal('CREATED', 'PAY')).toBe('CASE_TRANSITION_NOT_ALLOWED');
    expect(caseTransitionRefusal('FREE', 'PAY')).toBe('CASE_TRANSITION_NOT_ALLOWED');
    expect(caseTransitionRefusal('PAID', 'ADMIN_CLOSE')).toBeNull();
  });

  it('reaches every status from CREATED, so no status is dead in the table', () => {
    const reached = new Set<string>(['CREATED']);
    const queue = ['CREATED' as (typeof CASE_STATUSES)[number]];
    while (queue.length > 0) {
      const from = queue.shift()!;
      for (const event of EVENTS) {
        const to = nextCaseStatus(from, event);
        if (to !== null && !reached.has(to)) {
          reached.add(to);
          queue.push(to);
        }
      }
    }
    expect([...reached].sort()).toEqual([...CASE_STATUSES].sort());
  });
});

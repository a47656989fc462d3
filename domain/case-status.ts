// The specification lists the case statuses but not their transitions; DESIGN.md §6 adds
// CLOSED_EXPIRED and lets an admin close any open case. The other moves follow the product's
// constants (a new case is valid 48 hours, a case lives 120 hours before it closes, subscriptions
// expire) and are written down in docs/decisions/0045. The table only says which moves exist;
// timers and payments are the caller's business.

export const CASE_STATUSES = [
  'CREATED',
  'FREE',
  'ACCEPTED',
  'WAITING_PAYMENT',
  'PAID',
  'CLOSED_BY_PROFESSIONAL',
  'CLOSED_REJECTED',
  'CLOSED_NOT_ANSWERED',
  'CLOSED_NOT_PAID',
  'CLOSED_LIFETIME',
  'CLOSED_BY_ADMIN',
  'CLOSED_EXPIRED',
] as const;
export type CaseStatus = (typeof CASE_STATUSES)[number];

export const CASE_TYPES = ['SINGLE_CASE', 'SUBSCRIPTION'] as const;
export type CaseType = (typeof CASE_TYPES)[number];

export type CaseEvent =
  | 'ACCEPT'
  | 'ACCEPT_FREE'
  | 'REJECT'
  | 'NOT_ANSWERED'
  | 'REQUEST_PAYMENT'
  | 'PAY'
  | 'PAYMENT_TIMEOUT'
  | 'PROFESSIONAL_CLOSE'
  | 'LIFETIME_ENDED'
  | 'SUBSCRIPTION_EXPIRED'
  | 'ADMIN_CLOSE';

const TABLE: Record<CaseStatus, Partial<Record<CaseEvent, CaseStatus>>> = {
  CREATED: {
    ACCEPT: 'ACCEPTED',
    ACCEPT_FREE: 'FREE',
    REJECT: 'CLOSED_REJECTED',
    NOT_ANSWERED: 'CLOSED_NOT_ANSWERED',
    ADMIN_CLOSE: 'CLOSED_BY_ADMIN',
  },
  ACCEPTED: { REQUEST_PAYMENT: 'WAITING_PAYMENT', PAY: 'PAID', ADMIN_CLOSE: 'CLOSED_BY_ADMIN' },
  WAITING_PAYMENT: { PAY: 'PAID', PAYMENT_TIMEOUT: 'CLOSED_NOT_PAID', ADMIN_CLOSE: 'CLOSED_BY_ADMIN' },
  FREE: {
    PROFESSIONAL_CLOSE: 'CLOSED_BY_PROFESSIONAL',
    LIFETIME_ENDED: 'CLOSED_LIFETIME',
    ADMIN_CLOSE: 'CLOSED_BY_ADMIN',
  },
  PAID: {
    PROFESSIONAL_CLOSE: 'CLOSED_BY_PROFESSIONAL',
    LIFETIME_ENDED: 'CLOSED_LIFETIME',
    SUBSCRIPTION_EXPIRED: 'CLOSED_EXPIRED',
    ADMIN_CLOSE: 'CLOSED_BY_ADMIN',
  },
  CLOSED_BY_PROFESSIONAL: {},
  CLOSED_REJECTED: {},
  CLOSED_NOT_ANSWERED: {},
  CLOSED_NOT_PAID: {},
  CLOSED_LIFETIME: {},
  CLOSED_BY_ADMIN: {},
  CLOSED_EXPIRED: {},
};

/** Mirrors the database's generated `closed` column: every CLOSED_* status is final. */
export const isClosedCaseStatus = (status: CaseStatus): boolean => status.startsWith('CLOSED_');

export const OPEN_CASE_STATUSES: readonly CaseStatus[] = CASE_STATUSES.filter((s) => !isClosedCaseStatus(s));

export function nextCaseStatus(from: CaseStatus, event: CaseEvent): CaseStatus | null {
  return TABLE[from][event] ?? null;
}

export type CaseTransitionRefusal = 'CASE_ALREADY_CLOSED' | 'CASE_TRANSITION_NOT_ALLOWED';

/** The error code the API answers when the table has no such move (null: the move exists). */
export function caseTransitionRefusal(from: CaseStatus, event: CaseEvent): CaseTransitionRefusal | null {
  if (nextCaseStatus(from, event) !== null) return null;
  return isClosedCaseStatus(from) ? 'CASE_ALREADY_CLOSED' : 'CASE_TRANSITION_NOT_ALLOWED';
}

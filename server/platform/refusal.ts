/**
 * Why a service said no: a stable code from this list (the console translates it under
 * `errorMessages.<code>`), never an HTTP status. server/http/refusals.ts maps each code to its status
 * in one table, which the type checker keeps complete: a code added here without a status there does
 * not compile.
 */
export const REFUSAL_CODES = [
  // request input the services check themselves (keyset cursors, server/db/list.ts)
  'INVALID_CURSOR',
  // sign-in
  'EMAIL_OR_PASSWORD_INVALID',
  'TOO_MANY_ATTEMPTS',
  // a mutation carrying the session cookie from another site (docs/decisions/0126)
  'ORIGIN_NOT_ALLOWED',
  // users (docs/decisions/0041)
  'USER_NOT_FOUND',
  'CANNOT_DISABLE_SELF',
  'USER_ALREADY_DISABLED',
  'USER_NOT_DISABLED',
  'NOT_A_PROFESSIONAL',
  'PROFESSIONAL_NOT_AWAITING_VERIFICATION',
  'USER_NOT_NEW',
  'MAIL_NOT_SENT',
  // areas of interest
  'AREA_OF_INTEREST_NOT_FOUND',
  'AREA_OF_INTEREST_ALREADY_EXISTS',
  // cases (docs/decisions/0045, 0047)
  'CASE_NOT_FOUND',
  'CASE_ALREADY_CLOSED',
  'CASE_TRANSITION_NOT_ALLOWED',
  'REVIEW_NOT_FOUND',
  // stored files (docs/decisions/0046)
  'ATTACHMENT_NOT_FOUND',
  'VOICE_MESSAGE_NOT_FOUND',
  'FILE_NOT_FOUND',
  // an upload whose bytes are none of the types its purpose allows (docs/decisions/0126)
  'FILE_TYPE_NOT_ALLOWED',
  // settlements (issue 11, docs/decisions/0066–0068)
  'SELECT_ONE_DOCTOR',
  'PROFESSIONAL_MISSING_DATA',
  'SETTLEMENT_NOT_FOUND',
  'SETTLEMENT_NOT_IN_SELECTION',
  'SETTLEMENT_NOT_SETTLEABLE',
  'SETTLEMENT_TOTAL_CHANGED',
  'SETTLEMENT_NOT_DELETABLE',
  'SETTLEMENT_HAS_PAYOUT_HISTORY',
  'SETTLEMENT_NOT_ADJUSTABLE',
  'SETTLEMENT_TRANSITION_NOT_ALLOWED',
  'ADJUSTMENT_ABOVE_GROSS',
  'INVOICE_TYPE_NOT_ALLOWED',
  'INVOICE_NOT_FOUND',
  // SEPA payouts (issue 11, docs/decisions/0069–0071)
  'IDEMPOTENCY_KEY_REQUIRED',
  'IDEMPOTENCY_KEY_INVALID',
  'IDEMPOTENCY_KEY_REUSED',
  'SEPA_EXECUTION_DATE_IN_PAST',
  'SEPA_CHANGED_RETRY',
  'SEPA_FILE_NOT_FOUND',
  'SEPA_TRANSITION_NOT_ALLOWED',
  'SEPA_NOT_DELETABLE',
  'SEPA_NOT_DOWNLOADABLE',
  'STATUS_REPORT_MISSING',
  'STATUS_REPORT_UNREADABLE',
  'STATUS_REPORT_ENCODING_UNSUPPORTED',
  'STATUS_REPORT_UNKNOWN_FILE',
  'STATUS_REPORT_MISMATCH',
  'STATUS_REPORT_TOO_LATE',
  'NO_SEPA_CREATED',
  // exports (docs/decisions/0076, 0077)
  'EXPORT_TYPE_UNKNOWN',
  'EXPORT_END_BEFORE_START',
  'EXPORT_RANGE_TOO_LONG',
  'EXPORT_XLSX_TOO_MANY_ROWS',
  'NO_RECORDS_FOUND_WITH_DATES',
  'EXPORT_NOT_FOUND',
  'EXPORT_NOT_CANCELLABLE',
  'EXPORT_NOT_READY',
  'EXPORT_EXPIRED',
  // statement imports (docs/decisions/0097)
  'STATEMENT_UNREADABLE',
  'STATEMENT_HAS_ERRORS',
  'STATEMENT_PREVIEW_MISMATCH',
  'STATEMENT_ALREADY_IMPORTED',
  'STATEMENT_NOTHING_NEW',
  'STATEMENT_IMPORT_NOT_FOUND',
  // statements' accounts and balances (issue 27, docs/decisions/0121)
  'STATEMENT_ACCOUNT_REQUIRED',
  'STATEMENT_ACCOUNT_INVALID',
  'STATEMENT_BALANCE_MISMATCH',
  // statement uploads refused from their bytes, before a job exists (issue 27, docs/decisions/0122)
  'STATEMENT_EMPTY',
  'STATEMENT_NOT_A_STATEMENT',
  'STATEMENT_CONTROL_CHARACTERS',
  'STATEMENT_CURRENCY_UNSUPPORTED',
  // statement reconciliation (issue 12, docs/decisions/0093, 0094)
  'STATEMENT_FILE_NOT_FOUND',
  'STATEMENT_LINE_NOT_FOUND',
  'STATEMENT_ACTION_NOT_FOUND',
  'STATEMENT_COUNTERPART_NOT_FOUND',
  'STATEMENT_COUNTERPART_TAKEN',
  'STATEMENT_LINE_ALREADY_MATCHED',
  'STATEMENT_LINE_NOT_MATCHED',
  'STATEMENT_NO_SUGGESTION',
  'STATEMENT_NOTE_REQUIRED',
  'STATEMENT_MATCH_WRONG_DIRECTION',
  'STATEMENT_ACTION_STALE',
  'STATEMENT_NOT_RECONCILABLE',
  'STATEMENT_UNMATCH_BLOCKED',
  'STATEMENT_FILE_RECONCILED',
] as const;
export type RefusalCode = (typeof REFUSAL_CODES)[number];

export interface RefusalDetails {
  /** The input that was refused, e.g. `cursor`; answered as `errors: [{field, code: 'invalid'}]`. */
  field?: string;
  /** How long to wait before trying again (`TOO_MANY_ATTEMPTS`); answered as `Retry-After`. */
  retryAfterSeconds?: number;
  /**
   * Facts the client needs to react without another call, answered beside `code` (e.g. the doctor's
   * `missingFields`, a settlement month's `currentTotalCents`). Declared by the route's error schema.
   */
  extra?: Record<string, unknown>;
}

export class Refusal extends Error {
  constructor(
    readonly code: RefusalCode,
    readonly details: RefusalDetails = {},
  ) {
    super(code);
    this.name = 'Refusal';
  }
}

export const refuse = (code: RefusalCode, details?: RefusalDetails): Refusal => new Refusal(code, details);

const REFUSAL_CODE_SET: ReadonlySet<string> = new Set(REFUSAL_CODES);
export const isRefusalCode = (code: string): code is RefusalCode => REFUSAL_CODE_SET.has(code);

/**
 * Every server error code the console can translate. Keys under `errorMessages.` are
 * built from this list at run time, so the locale test reads it to know they are used.
 */
export const ERROR_CODES = [
  'GENERIC_ERROR',
  'EMAIL_OR_PASSWORD_INVALID',
  'TOO_MANY_ATTEMPTS',
  'VALIDATION_ERROR',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'NOT_FOUND',
  'PAYLOAD_TOO_LARGE',
  'INVALID_JSON',
  'INVALID_CURSOR',
  'UNSUPPORTED_MEDIA_TYPE',
  'NO_SEPA_CREATED',
  'EMAIL_NOT_FOUND',
  'PROFESSIONALS_NOT_FOUND',
  'CASE_NOT_FOUND',
  'NO_RECORDS_FOUND',
  'NO_RECORDS_FOUND_WITH_DATES',
  'PROFESSIONAL_MISSING_DATA',
  /** Also a `bank.ibanError`: a valid IBAN of a country outside the SEPA schemes. */
  'IBAN_NOT_SEPA',
  'AREA_OF_INTEREST_ALREADY_EXISTS',
  'CASE_ALREADY_CLOSED',
  'CASE_TRANSITION_NOT_ALLOWED',
  'VOICE_MESSAGE_NOT_FOUND',
  'ATTACHMENT_NOT_FOUND',
  'FILE_NOT_FOUND',
  'USER_NOT_FOUND',
  'CANNOT_DISABLE_SELF',
  'USER_ALREADY_DISABLED',
  'USER_NOT_DISABLED',
  'USER_NOT_NEW',
  'NOT_A_PROFESSIONAL',
  'PROFESSIONAL_NOT_AWAITING_VERIFICATION',
  'MAIL_NOT_SENT',
  'AREA_OF_INTEREST_NOT_FOUND',
  'SELECT_ONE_DOCTOR',
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
  'STATUS_REPORT_UNKNOWN_FILE',
  'STATUS_REPORT_MISMATCH',
  'STATUS_REPORT_TOO_LATE',
] as const;

/** Field-level codes of `VALIDATION_ERROR` lists, translated under `validation.`. */
export const VALIDATION_CODES = ['required', 'email', 'too_small', 'too_big', 'invalid'] as const;

export const errorCodeKey = (code: string): string | null =>
  (ERROR_CODES as readonly string[]).includes(code) ? `errorMessages.${code}` : null;

export const validationCodeKey = (code: string): string | null =>
  (VALIDATION_CODES as readonly string[]).includes(code) ? `validation.${code}` : null;

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
  'EXPORT_TYPE_UNKNOWN',
  'EXPORT_END_BEFORE_START',
  'EXPORT_RANGE_TOO_LONG',
  'EXPORT_NOT_FOUND',
  'EXPORT_NOT_CANCELLABLE',
  'EXPORT_NOT_READY',
  'EXPORT_EXPIRED',
] as const;

/** Field-level codes of `VALIDATION_ERROR` lists, translated under `validation.`. */
export const VALIDATION_CODES = ['required', 'email', 'too_small', 'too_big', 'invalid'] as const;

export const errorCodeKey = (code: string): string | null =>
  (ERROR_CODES as readonly string[]).includes(code) ? `errorMessages.${code}` : null;

export const validationCodeKey = (code: string): string | null =>
  (VALIDATION_CODES as readonly string[]).includes(code) ? `validation.${code}` : null;

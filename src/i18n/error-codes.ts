import { REFUSAL_CODES } from '../../contract/refusal-codes';

/**
 * Codes the HTTP layer and the console answer with themselves, not a service's refusal: the request's
 * shape and session, messages of the console's own, and why a statement import job failed (its
 * `errorCode`; a source import job's too, which fails with the same codes).
 */
const NON_REFUSAL_CODES = [
  'GENERIC_ERROR',
  'VALIDATION_ERROR',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'NOT_FOUND',
  'PAYLOAD_TOO_LARGE',
  'INVALID_JSON',
  'BODY_TOO_DEEP',
  /** 503: a read ran past the statement timeout (server/http/errors.ts). */
  'DATABASE_BUSY',
  'UNSUPPORTED_MEDIA_TYPE',
  'EMAIL_NOT_FOUND',
  'PROFESSIONALS_NOT_FOUND',
  'NO_RECORDS_FOUND',
  /** Also a `bank.ibanError`: a valid IBAN of a country outside the SEPA schemes. */
  'IBAN_NOT_SEPA',
  'STATEMENT_IMPORT_FAILED',
  'STATEMENT_IMPORT_INTERRUPTED',
] as const;

/**
 * Every server error code the console can translate: the ones above and every refusal
 * (`contract/refusal-codes.ts`). Keys under `errorMessages.` are built from this list at run time, so
 * the locale test reads it to know they are used.
 */
export const ERROR_CODES: readonly string[] = [...NON_REFUSAL_CODES, ...REFUSAL_CODES];

/** Field-level codes of `VALIDATION_ERROR` lists, translated under `validation.`. */
export const VALIDATION_CODES = ['required', 'email', 'too_small', 'too_big', 'invalid'] as const;

export const errorCodeKey = (code: string): string | null =>
  ERROR_CODES.includes(code) ? `errorMessages.${code}` : null;

export const validationCodeKey = (code: string): string | null =>
  (VALIDATION_CODES as readonly string[]).includes(code) ? `validation.${code}` : null;

import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { RefusalCode } from '../platform/refusal';

/**
 * The one place a service's refusal becomes an HTTP status. Services know codes, not statuses; the
 * record type makes the table complete (a new code without a status does not compile).
 */
export const REFUSAL_STATUS: Record<RefusalCode, ContentfulStatusCode> = {
  INVALID_CURSOR: 400,
  EMAIL_OR_PASSWORD_INVALID: 401,
  TOO_MANY_ATTEMPTS: 429,
  USER_NOT_FOUND: 404,
  CANNOT_DISABLE_SELF: 409,
  USER_ALREADY_DISABLED: 409,
  USER_NOT_DISABLED: 409,
  NOT_A_PROFESSIONAL: 409,
  PROFESSIONAL_NOT_AWAITING_VERIFICATION: 409,
  USER_NOT_NEW: 409,
  MAIL_NOT_SENT: 502,
  AREA_OF_INTEREST_NOT_FOUND: 404,
  AREA_OF_INTEREST_ALREADY_EXISTS: 409,
  CASE_NOT_FOUND: 404,
  CASE_ALREADY_CLOSED: 409,
  CASE_TRANSITION_NOT_ALLOWED: 409,
  REVIEW_NOT_FOUND: 404,
  ATTACHMENT_NOT_FOUND: 404,
  VOICE_MESSAGE_NOT_FOUND: 404,
  FILE_NOT_FOUND: 404,
};

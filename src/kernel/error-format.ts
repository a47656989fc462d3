import { ApiError } from '../api/http';
import { errorCodeKey, validationCodeKey } from '../i18n/error-codes';
import type { Translate } from '../i18n/i18n';

export interface FormattedError {
  title: string;
  message: string;
}

/** Turns any failure into the toast text of spec §8: code lookup, `field: message` lines, fallback. */
export function formatError(error: unknown, t: Translate): FormattedError {
  const title = t('errorMessages.title');
  const fallback = t('errorMessages.fallback');
  if (!(error instanceof ApiError) || !error.code) return { title, message: fallback };
  if (error.errors.length > 0) {
    const lines = error.errors.map(({ field, code }) => {
      const key = validationCodeKey(code);
      return `${field}: ${key ? t(key) : fallback}`;
    });
    return { title, message: lines.join('\n') };
  }
  const key = errorCodeKey(error.code);
  return { title, message: key ? t(key) : fallback };
}

import { ApiError } from '../api/http';
import { errorCodeKey, validationCodeKey } from '../i18n/error-codes';
import type { Translate } from '../i18n/i18n';

export interface FormattedError {
  title: string;
  message: string;
}

/** The label the admin reads for a request field; a field without one is left out of the line. */
const FIELD_LABEL_KEYS: Readonly<Record<string, string>> = {
  q: 'table.search',
  email: 'login.email',
  password: 'login.password',
  name: 'areas.name',
};

/** Turns any failure into the toast text of spec §8: code lookup, `field: message` lines, fallback. */
export function formatError(error: unknown, t: Translate): FormattedError {
  const title = t('errorMessages.title');
  const fallback = t('errorMessages.fallback');
  if (!(error instanceof ApiError) || !error.code) return { title, message: fallback };
  if (error.errors.length > 0) {
    const lines = error.errors.map(({ field, code }) => {
      const key = validationCodeKey(code);
      const text = key ? t(key) : fallback;
      // Spec §8's `field: message`, with the field as the admin knows it, never the parameter's name.
      const label = FIELD_LABEL_KEYS[field];
      return label ? `${t(label)}: ${text}` : text;
    });
    return { title, message: lines.join('\n') };
  }
  const key = errorCodeKey(error.code);
  // A screen's own refusals load with its strings (decision 0098): before they have, the fallback.
  return { title, message: (key && t(key)) || fallback };
}

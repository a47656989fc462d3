import { ApiError } from '../api/http';
import { translate } from '../i18n/i18n';
import { formatError } from './error-format';
import { notify } from './toast';

/** Global onError of queries and mutations: one danger toast per failure (spec §8). */
export function toastError(error: unknown): void {
  // A 401 already sends the admin to the login screen; a toast would only add noise.
  if (error instanceof ApiError && error.status === 401) return;
  const { title, message } = formatError(error, translate);
  notify('danger', message, title);
}

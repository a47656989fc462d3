import { render } from '@testing-library/react';
import type { Locale } from '../../../machines/session';
import { createQueryClient } from '../../../src/api/query-client';
import { App } from '../../../src/app/App';
import { toastError } from '../../../src/kernel/query-errors';

/**
 * Mounts the whole console at a path, as main.tsx does, with English for readable assertions. `token`:
 * the browser holds a session cookie with it, as the server would have set it at sign-in (HttpOnly in a
 * real browser; jsdom's cookie jar stands in for the browser's, so the real API in the same process gets it too).
 */
export function renderApp(path: string, options: { token?: string | null; locale?: Locale } = {}) {
  window.history.replaceState(null, '', path);
  // biome-ignore lint/suspicious/noDocumentCookie: jsdom has no Cookie Store API; the test sets the cookie a browser would hold
  if (options.token) document.cookie = `authorization=${options.token}; Path=/`;
  const queryClient = createQueryClient(toastError);
  const utils = render(<App queryClient={queryClient} locale={options.locale ?? 'en-GB'} />);
  return { ...utils, queryClient };
}

export const currentPath = () => window.location.pathname + window.location.search;

import { render } from '@testing-library/react';
import type { Locale } from '../../../machines/session';
import { createQueryClient } from '../../../src/api/query-client';
import { App } from '../../../src/app/App';
import { toastError } from '../../../src/kernel/query-errors';

/** Mounts the whole console at a path, as main.tsx does, with English for readable assertions. */
export function renderApp(path: string, options: { token?: string | null; locale?: Locale } = {}) {
  window.history.replaceState(null, '', path);
  const token = options.token ?? null;
  if (token) document.cookie = `authorization=${token}; Path=/`;
  const queryClient = createQueryClient(toastError);
  const utils = render(<App queryClient={queryClient} locale={options.locale ?? 'en-GB'} token={token} />);
  return { ...utils, queryClient };
}

export const currentPath = () => window.location.pathname + window.location.search;

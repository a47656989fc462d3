import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createQueryClient } from './api/query-client';
import { prefetchMe } from './api/session';
import { App } from './app/App';
import { ROUTES, startScreenAhead } from './app/routes';
import { initialLocale } from './i18n/locales';
import { toastError } from './kernel/query-errors';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('#root missing from index.html');

// The session check is on every screen's path: it leaves before the first render, ahead of the
// screen's code and data (docs/decisions/0052). Only the server knows whether the browser's session
// cookie is live (the console cannot read it, docs/decisions/0126), so it is asked on every load.
prefetchMe();
// So do the current screen's data and code: the first render costs ~150 ms of a cold load.
const route = ROUTES.find((candidate) => candidate.path === window.location.pathname);
if (route?.access === 'auth') startScreenAhead(route, window.location.search);

createRoot(root).render(
  <StrictMode>
    <App
      queryClient={createQueryClient(toastError)}
      locale={initialLocale(window.location.pathname, navigator.languages)}
    />
  </StrictMode>,
);

import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AUTH_COOKIE } from './api/http';
import { createQueryClient } from './api/query-client';
import { App } from './app/App';
import { toastError } from './app/query-errors';
import { initialLocale } from './i18n/locales';
import { readCookie } from './lib/cookies';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('#root missing from index.html');

createRoot(root).render(
  <StrictMode>
    <App
      queryClient={createQueryClient(toastError)}
      locale={initialLocale(window.location.pathname, navigator.languages)}
      token={readCookie(AUTH_COOKIE)}
    />
  </StrictMode>,
);

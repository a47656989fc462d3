import type { ReactNode } from 'react';
import { Redirect, useLocation, useSearch } from 'wouter';
import { useI18n } from '../i18n/i18n';
import { loginHref, SessionContext, safeRedirectPath } from '../kernel/session';

export function FullPageLoading() {
  const { t } = useI18n();
  return (
    <div className="full-page-loading" role="status">
      {t('app.loading')}
    </div>
  );
}

const useCurrentPath = () => {
  const [path] = useLocation();
  const search = useSearch();
  return search ? `${path}?${search}` : path;
};

/**
 * Spec §2: a live session (the server's cookie, checked by `user/me`) and a current user with admin
 * data, or back to login. A session ended elsewhere (another tab signed out, the idle timeout) shows
 * as the next request's 401, which the HTTP layer turns into `session.unauthorized`.
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const current = useCurrentPath();
  const authenticated = SessionContext.useSelector((s) => s.hasTag('authenticated'));
  const settled = SessionContext.useSelector((s) => s.matches('loggedOut') || s.matches('loggedIn'));
  if (!settled) return <FullPageLoading />;
  if (!authenticated) return <Redirect to={loginHref(current)} replace />;
  return <>{children}</>;
}

export function RequireLoggedOut({ children }: { children: ReactNode }) {
  const search = useSearch();
  const authenticated = SessionContext.useSelector((s) => s.hasTag('authenticated'));
  const restoring = SessionContext.useSelector((s) => s.matches('loadingUser'));
  if (restoring) return <FullPageLoading />;
  if (authenticated) {
    return <Redirect to={safeRedirectPath(new URLSearchParams(search).get('redirectPath'))} replace />;
  }
  return <>{children}</>;
}

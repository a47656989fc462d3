import { type ReactNode, useEffect } from 'react';
import { Redirect, useLocation, useSearch } from 'wouter';
import { AUTH_COOKIE } from '../api/http';
import { useI18n } from '../i18n/i18n';
import { loginHref, SessionContext, safeRedirectPath } from '../kernel/session';
import { readCookie } from '../lib/cookies';

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

/** Spec §2: an authorization cookie and a current user with admin data, or back to login. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const current = useCurrentPath();
  const session = SessionContext.useActorRef();
  const authenticated = SessionContext.useSelector((s) => s.hasTag('authenticated'));
  const settled = SessionContext.useSelector((s) => s.matches('loggedOut') || s.matches('loggedIn'));
  const cookieGone = authenticated && readCookie(AUTH_COOKIE) === null;

  useEffect(() => {
    // Another tab signed out: the cookie is gone while this tab still holds a user.
    if (cookieGone) session.send({ type: 'session.unauthorized', path: current });
  }, [cookieGone, session, current]);

  if (!settled) return <FullPageLoading />;
  if (!authenticated || cookieGone) return <Redirect to={loginHref(current)} replace />;
  return <>{children}</>;
}

export function RequireLoggedOut({ children }: { children: ReactNode }) {
  const search = useSearch();
  const authenticated = SessionContext.useSelector((s) => s.hasTag('authenticated'));
  const restoring = SessionContext.useSelector((s) => s.matches('loadingUser') || s.matches('restoring'));
  if (restoring) return <FullPageLoading />;
  if (authenticated) {
    return <Redirect to={safeRedirectPath(new URLSearchParams(search).get('redirectPath'))} replace />;
  }
  return <>{children}</>;
}

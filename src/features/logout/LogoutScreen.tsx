import { useEffect } from 'react';
import { Redirect } from 'wouter';
import { useI18n } from '../../i18n/i18n';
import { SessionContext } from '../../kernel/session';

export default function LogoutScreen() {
  const { t } = useI18n();
  const session = SessionContext.useActorRef();
  const authenticated = SessionContext.useSelector((s) => s.hasTag('authenticated'));
  const loggedOut = SessionContext.useSelector((s) => s.matches('loggedOut'));

  useEffect(() => {
    if (authenticated) session.send({ type: 'session.logout' });
  }, [authenticated, session]);

  if (loggedOut) return <Redirect to="/login" replace />;
  return <p role="status">{t('logout.inProgress')}</p>;
}

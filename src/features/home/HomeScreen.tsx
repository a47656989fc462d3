import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { statusCountsQuery } from '../../api/professionals';
import { useI18n } from '../../i18n/i18n';
import { useRouteLinks } from '../../kernel/route-links';
import { SessionContext } from '../../kernel/session';

const SHORTCUT_ROUTES = ['customers', 'professionals', 'cases', 'settlement', 'sepa', 'exportUsers'];

export default function HomeScreen() {
  const { t, locale } = useI18n();
  const name = SessionContext.useSelector((s) => s.context.user?.user.name ?? '');
  const { data: counts } = useQuery(statusCountsQuery);
  const shortcuts = useRouteLinks(SHORTCUT_ROUTES);
  const number = new Intl.NumberFormat(locale);
  const show = (n: number | undefined) => (n === undefined ? '…' : number.format(n));

  return (
    <div className="home">
      <p className="home-welcome">{t('home.welcome', { name })}</p>
      <div className="stat-cards">
        <Link href="/professionals/verification" className="stat-card">
          <span className="stat-value" data-testid="count-to-verify">
            {show(counts?.EMAIL_VERIFIED)}
          </span>
          <span className="stat-label">{t('home.toVerify')}</span>
        </Link>
        <Link href="/professionals/disabled" className="stat-card">
          <span className="stat-value" data-testid="count-disabled">
            {show(counts?.DISABLED)}
          </span>
          <span className="stat-label">{t('home.disabled')}</span>
        </Link>
      </div>
      <h2>{t('home.shortcuts')}</h2>
      <ul className="home-shortcuts">
        {shortcuts.map((route) => (
          <li key={route.id}>
            <Link href={route.path}>{t(route.titleKey)}</Link>
            {route.goKey ? <kbd>g {route.goKey}</kbd> : null}
          </li>
        ))}
      </ul>
      <p className="home-tip">{t('home.paletteTip')}</p>
    </div>
  );
}

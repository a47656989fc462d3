import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { dashboardQuery } from '../../api/dashboard';
import { useI18n } from '../../i18n/i18n';
import { formatError } from '../../kernel/error-format';
import { SessionContext } from '../../kernel/session';
import { AttentionCards } from './AttentionCards';

// uPlot and the charts load after the counters are drawn: the first paint never waits for them.
const TrendCharts = lazy(() => import('./TrendCharts'));

export default function HomeScreen() {
  const { t } = useI18n();
  const name = SessionContext.useSelector((s) => s.context.user?.user.name ?? '');
  const { data, error } = useQuery({ ...dashboardQuery, meta: { inlineError: true } });

  return (
    <div className="home">
      <p className="home-welcome">{t('home.welcome', { name })}</p>
      {error ? (
        <p className="screen-error" role="alert">
          {formatError(error, t).message}
        </p>
      ) : null}
      <AttentionCards attention={data?.attention} />
      <section aria-labelledby="home-trends">
        <h2 id="home-trends">{t('home.trends')}</h2>
        {data ? (
          <Suspense fallback={<p className="trend-loading">{t('app.loading')}</p>}>
            <TrendCharts trends={data.trends} />
          </Suspense>
        ) : (
          <p className="trend-loading">{t('app.loading')}</p>
        )}
      </section>
      <p className="home-tip">{t('home.paletteTip')}</p>
    </div>
  );
}

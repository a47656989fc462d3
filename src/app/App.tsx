import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Suspense, useEffect } from 'react';
import { Toaster } from 'react-hot-toast';
import { Route, Switch, useLocation } from 'wouter';
import type { Locale } from '../../machines/session';
import { setUnauthorizedHandler } from '../api/http';
import { NotFoundPage } from '../features/errors/ErrorPage';
import { I18nProvider } from '../i18n/i18n';
import { ScreenView } from '../kernel/chunk-reload';
import { useFocusKeeper } from '../kernel/focus';
import { usePageTitle } from '../kernel/page-title';
import { PaletteRegistryProvider } from '../kernel/palette-registry';
import { RouteLinksProvider } from '../kernel/route-links';
import { loginHref, SessionContext } from '../kernel/session';
import { ErrorBoundary } from './ErrorBoundary';
import { FullPageLoading, RequireAuth, RequireLoggedOut } from './guards';
import { LoadingBar } from './LoadingBar';
import { AdminLayout, PlainLayout } from './layouts';
import { ROUTES, type RouteDef, startScreenAhead } from './routes';
import { Shortcuts } from './shortcuts/Shortcuts';

function RouteView({ route }: { route: RouteDef }) {
  usePageTitle(route.titleKey);
  const session = SessionContext.useActorRef();
  useEffect(() => {
    // The guard waits for the session check; fetching the screen's code meanwhile saves a round trip,
    // and so does the screen's first request at start-up (docs/decisions/0052). Once the session is
    // known the screen asks for itself as it mounts, so only a pending check prefetches.
    // The data first: Chromium queues what exceeds 6 connections, and the code is smaller and cached.
    const snapshot = session.getSnapshot();
    if (snapshot.matches('loadingUser')) startScreenAhead(route, window.location.search);
    else route.screen.preload();
  }, [route, session]);
  // The Suspense boundary only serves a screen whose code failed to load (the error is rethrown).
  const screen = (
    <Suspense fallback={<FullPageLoading />}>
      <ScreenView screen={route.screen} fallback={<FullPageLoading />} />
    </Suspense>
  );
  if (route.access === 'auth') {
    return (
      <RequireAuth>
        <AdminLayout titleKey={route.titleKey}>{screen}</AdminLayout>
      </RequireAuth>
    );
  }
  const plain = <PlainLayout>{screen}</PlainLayout>;
  return route.access === 'loggedOut' ? <RequireLoggedOut>{plain}</RequireLoggedOut> : plain;
}

/** Wires the HTTP layer's 401s and the cache to the session (spec §4). */
function SessionEffects({ queryClient }: { queryClient: QueryClient }) {
  const session = SessionContext.useActorRef();
  const [, navigate] = useLocation();
  const authenticated = SessionContext.useSelector((s) => s.hasTag('authenticated'));

  useEffect(() => {
    setUnauthorizedHandler(() => {
      const { pathname, search } = window.location;
      if (pathname === '/login') return;
      const path = pathname + search;
      session.send({ type: 'session.unauthorized', path });
      navigate(loginHref(path), { replace: true });
    });
    return () => setUnauthorizedHandler(null);
  }, [session, navigate]);

  useEffect(() => {
    // Another admin signing in on this browser must not see the previous one's data.
    if (!authenticated) queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== 'locales' });
  }, [authenticated, queryClient]);

  return null;
}

function Routes() {
  const [location] = useLocation();
  useFocusKeeper();
  return (
    <ErrorBoundary resetKey={location}>
      <Switch>
        {ROUTES.map((route) => (
          <Route key={route.id} path={route.path}>
            <RouteView route={route} />
          </Route>
        ))}
        <Route>
          <PlainLayout>
            <NotFoundPage />
          </PlainLayout>
        </Route>
      </Switch>
    </ErrorBoundary>
  );
}

export interface AppProps {
  queryClient: QueryClient;
  locale: Locale;
}

export function App({ queryClient, locale }: AppProps) {
  return (
    <QueryClientProvider client={queryClient}>
      <I18nProvider initial={locale}>
        <SessionContext.Provider>
          <RouteLinksProvider value={ROUTES}>
            <PaletteRegistryProvider>
              <SessionEffects queryClient={queryClient} />
              <LoadingBar />
              <Shortcuts />
              <Routes />
              {/* Below the top bar (44 px), never over its controls; long messages wrap within the toast. */}
              <Toaster
                position="top-right"
                containerStyle={{ top: 52 }}
                toastOptions={{ style: { maxWidth: '28rem' } }}
              />
            </PaletteRegistryProvider>
          </RouteLinksProvider>
        </SessionContext.Provider>
      </I18nProvider>
    </QueryClientProvider>
  );
}

import type { StatusCounts } from '../api/professionals';
import { prefetchUsersFirstPage } from '../features/users/users-list';
import { type LazyScreen, lazyScreen } from '../kernel/chunk-reload';

export type NavSection = 'users' | 'exports' | 'financialManager' | 'administration';
export type NavGroup = 'professionals' | 'payments' | 'usersExport';

export interface RouteDef {
  id: string;
  path: string;
  titleKey: string;
  /** `auth` needs a signed-in admin; `loggedOut` sends a signed-in admin away; `open` is neither. */
  access: 'auth' | 'loggedOut' | 'open';
  screen: LazyScreen;
  /**
   * Starts the screen's first request (given the URL's query string) while the session is still being
   * checked at start-up, so it does not wait for the session, the screen's code and its first render.
   */
  prefetch?(search: string): void;
  nav?: { section: NavSection; group?: NavGroup; badge?: keyof StatusCounts };
  /** Letter after `g` that opens this screen. */
  goKey?: string;
  /** Other words the palette finds this screen by, in both languages (comma-separated). */
  synonymsKey?: string;
}

// One screen serves the five export routes; the path says what it exports.
const exportScreen = lazyScreen(() => import('../features/exports/ExportScreen'));
// The user view with the cases section the cases feature gives it (the shell joins the two features).
const userScreen = lazyScreen(() => import('./screens/UserWithCasesScreen'));

/** One table feeds the router, the sidebar, the palette and the `g` shortcuts. */
export const ROUTES: readonly RouteDef[] = [
  {
    id: 'home',
    path: '/',
    titleKey: 'routes.home',
    access: 'auth',
    screen: lazyScreen(() => import('../features/home/HomeScreen')),
    goKey: 'h',
  },
  {
    id: 'login',
    path: '/login',
    titleKey: 'routes.login',
    access: 'loggedOut',
    screen: lazyScreen(() => import('../features/login/LoginScreen')),
  },
  {
    id: 'logout',
    path: '/logout',
    titleKey: 'routes.logout',
    access: 'open',
    screen: lazyScreen(() => import('../features/logout/LogoutScreen')),
  },
  {
    id: 'customers',
    path: '/customers',
    titleKey: 'routes.customers',
    access: 'auth',
    screen: lazyScreen(() => import('../features/users/CustomersScreen')),
    prefetch: (search) => prefetchUsersFirstPage('CUSTOMER', undefined, search),
    nav: { section: 'users' },
    goKey: 'c',
    synonymsKey: 'palette.synonyms.customers',
  },
  {
    id: 'customer',
    path: '/customers/:id',
    titleKey: 'routes.customer',
    access: 'auth',
    screen: userScreen,
  },
  {
    id: 'professionals',
    path: '/professionals',
    titleKey: 'routes.professionals',
    access: 'auth',
    screen: lazyScreen(() => import('../features/users/ProfessionalsScreen')),
    prefetch: (search) => prefetchUsersFirstPage('PROFESSIONAL', undefined, search),
    nav: { section: 'users', group: 'professionals' },
    goKey: 'p',
    synonymsKey: 'palette.synonyms.professionals',
  },
  {
    id: 'professionalsDisabled',
    path: '/professionals/disabled',
    titleKey: 'routes.professionalsDisabled',
    access: 'auth',
    screen: lazyScreen(() => import('../features/users/DisabledProfessionalsScreen')),
    prefetch: (search) => prefetchUsersFirstPage('PROFESSIONAL', 'DISABLED', search),
    nav: { section: 'users', group: 'professionals', badge: 'DISABLED' },
    goKey: 'd',
  },
  {
    id: 'professionalsVerification',
    path: '/professionals/verification',
    titleKey: 'routes.professionalsVerification',
    access: 'auth',
    screen: lazyScreen(() => import('../features/users/VerificationScreen')),
    prefetch: (search) => prefetchUsersFirstPage('PROFESSIONAL', 'EMAIL_VERIFIED', search),
    nav: { section: 'users', group: 'professionals', badge: 'EMAIL_VERIFIED' },
    goKey: 'v',
  },
  {
    id: 'areaInterest',
    path: '/professionals/area-interest',
    titleKey: 'routes.areaInterest',
    access: 'auth',
    screen: lazyScreen(() => import('../features/areas/AreasScreen')),
    nav: { section: 'users', group: 'professionals' },
    goKey: 'i',
  },
  {
    id: 'professional',
    path: '/professionals/:id',
    titleKey: 'routes.professional',
    access: 'auth',
    screen: userScreen,
  },
  {
    id: 'cases',
    path: '/cases',
    titleKey: 'routes.cases',
    access: 'auth',
    screen: lazyScreen(() => import('../features/cases/CasesScreen')),
    nav: { section: 'users' },
    goKey: 'a',
  },
  {
    id: 'exportUsers',
    path: '/export/users',
    titleKey: 'routes.exportUsers',
    access: 'auth',
    screen: exportScreen,
    nav: { section: 'exports', group: 'usersExport' },
    goKey: 'u',
  },
  {
    id: 'exportCustomers',
    path: '/export/customers',
    titleKey: 'routes.exportCustomers',
    access: 'auth',
    screen: exportScreen,
    nav: { section: 'exports', group: 'usersExport' },
  },
  {
    id: 'exportProfessionals',
    path: '/export/professionals',
    titleKey: 'routes.exportProfessionals',
    access: 'auth',
    screen: exportScreen,
    nav: { section: 'exports', group: 'usersExport' },
  },
  {
    id: 'exportCases',
    path: '/export/cases',
    titleKey: 'routes.exportCases',
    access: 'auth',
    screen: exportScreen,
    nav: { section: 'exports' },
  },
  {
    id: 'exportStats',
    path: '/export/stats',
    titleKey: 'routes.exportStats',
    access: 'auth',
    screen: exportScreen,
    nav: { section: 'exports' },
  },
  {
    id: 'exportsFailed',
    path: '/export/failed',
    titleKey: 'routes.exportsFailed',
    access: 'auth',
    screen: lazyScreen(() => import('../features/exports/FailedExportsScreen')),
    nav: { section: 'exports' },
  },
  {
    id: 'settlement',
    path: '/settlement',
    titleKey: 'routes.settlement',
    access: 'auth',
    screen: lazyScreen(() => import('../features/finance/SettlementScreen')),
    nav: { section: 'financialManager', group: 'payments' },
    goKey: 's',
  },
  {
    id: 'sepa',
    path: '/sepa',
    titleKey: 'routes.sepa',
    access: 'auth',
    screen: lazyScreen(() => import('../features/finance/SepaScreen')),
    nav: { section: 'financialManager', group: 'payments' },
    goKey: 'f',
  },
  {
    id: 'statements',
    path: '/statements',
    titleKey: 'routes.statements',
    access: 'auth',
    screen: lazyScreen(() => import('../features/statements/StatementsScreen')),
    nav: { section: 'financialManager' },
    goKey: 'b',
    synonymsKey: 'palette.synonyms.statements',
  },
  {
    id: 'monthClose',
    path: '/month-close',
    titleKey: 'routes.monthClose',
    access: 'auth',
    screen: lazyScreen(() => import('../features/finance/MonthCloseScreen')),
    nav: { section: 'financialManager' },
    goKey: 'm',
    synonymsKey: 'palette.synonyms.monthClose',
  },
  {
    id: 'providerDocuments',
    path: '/provider-documents',
    titleKey: 'routes.providerDocuments',
    access: 'auth',
    screen: lazyScreen(() => import('../features/finance/ProviderDocumentsScreen')),
    nav: { section: 'financialManager' },
    synonymsKey: 'palette.synonyms.providerDocuments',
  },
  {
    id: 'sources',
    path: '/sources',
    titleKey: 'routes.sources',
    access: 'auth',
    screen: lazyScreen(() => import('../features/sources/SourcesScreen')),
    nav: { section: 'financialManager' },
    goKey: 'o',
    synonymsKey: 'palette.synonyms.sources',
  },
  {
    id: 'sepaFile',
    path: '/sepa/:id',
    titleKey: 'routes.sepaFile',
    access: 'auth',
    screen: lazyScreen(() => import('../features/finance/SepaFileScreen')),
  },
  {
    id: 'audit',
    path: '/audit',
    titleKey: 'routes.audit',
    access: 'auth',
    screen: lazyScreen(() => import('../features/audit/AuditScreen')),
    nav: { section: 'administration' },
    goKey: 'l',
  },
  {
    id: 'chat',
    path: '/chat/:id',
    titleKey: 'routes.chat',
    access: 'auth',
    screen: lazyScreen(() => import('../features/cases/ChatScreen')),
  },
];

export const NAV_SECTIONS: readonly NavSection[] = ['users', 'exports', 'financialManager', 'administration'];

/** Routes without parameters can be opened from the palette as they are. */
export const isStaticRoute = (route: RouteDef) => !route.path.includes(':');

export const routeById = (id: string): RouteDef => {
  const route = ROUTES.find((r) => r.id === id);
  if (!route) throw new Error(`unknown route ${id}`);
  return route;
};

/**
 * Starts what a screen will ask for first, its data and its code, while the session is still being
 * checked: from the entry script before the first render, and again (a no-op then) as the route mounts.
 */
export function startScreenAhead(route: RouteDef, search: string): void {
  route.prefetch?.(search);
  route.screen.preload();
}

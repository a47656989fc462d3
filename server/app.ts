import { Hono } from 'hono';
import { registerCasesArea } from './cases/routes';
import { registerDashboardArea } from './dashboard/routes';
import { registerExportsArea } from './exports/routes';
import { registerFinanceArea } from './finance/routes';
import { requireAdmin } from './http/auth';
import type { AppDeps, AppEnv } from './http/context';
import { errorResponse, handleError, notFound } from './http/errors';
import { noStore } from './http/no-store';
import { registerOpenApiRoutes } from './http/openapi-route';
import { RouteRegistry } from './http/routes';
import { securityHeaders } from './http/security-headers';
import { registerAuditRoutes } from './platform/audit-routes';
import { openFileStorage } from './platform/files/open-storage';
import { registerAttachmentRoutes } from './platform/files/routes';
import { registerSessionRoutes } from './platform/session-routes';
import { registerSystemRoutes } from './platform/system-routes';
import { registerSourcesArea } from './sources/routes';
import { createSourceImports } from './sources/source-import';
import { createStatementImports } from './statements/import';
import { registerStatementImportRoutes } from './statements/import-routes';
import { registerStatementReconciliationRoutes } from './statements/reconcile-routes';
import { registerStatementSearchRoutes } from './statements/search-routes';
import { serveConsole } from './static';
import { registerUsersArea } from './users/routes';

export type { AppDeps } from './http/context';

/** What createApp is given: the storage defaults to the backend the configuration names. */
export type AppOptions = Omit<AppDeps, 'storage' | 'statementImports' | 'sourceImports'> &
  Partial<Pick<AppDeps, 'storage' | 'statementImports' | 'sourceImports'>>;

export function createApp(options: AppOptions): Hono<AppEnv> {
  const storage = options.storage ?? openFileStorage(options.config, options.db);
  const statementImports =
    options.statementImports ?? createStatementImports({ db: options.db, storage, clock: options.clock });
  const deps: AppDeps = {
    ...options,
    storage,
    statementImports,
    sourceImports:
      options.sourceImports ??
      createSourceImports({
        db: options.db,
        storage,
        statementImports,
        clock: options.clock,
        saftSchemaBeforeAcceptMaxBytes: options.config.saftSchemaBeforeAcceptMaxBytes,
      }),
  };
  const app = new Hono<AppEnv>();
  app.use('*', securityHeaders);
  app.use('*', async (c, next) => {
    c.set('deps', deps);
    await next();
  });
  // Before any route: whatever a later module registers under /v2/admin/ is guarded, and no answer
  // there is cached, the guard's own 401 and 403 included (the registry does it for 'session' routes).
  app.use('/v2/admin/*', noStore, requireAdmin);

  // Tests check every JSON answer against its route's declared schema (docs/decisions/0061).
  const routes = new RouteRegistry(app, {
    checkResponses: deps.checkResponses ?? deps.config.checkResponses,
  });
  registerSystemRoutes(routes);
  registerSessionRoutes(routes);
  registerUsersArea(routes);
  registerAttachmentRoutes(routes);
  registerCasesArea(routes);
  registerFinanceArea(routes);
  registerAuditRoutes(routes);
  registerDashboardArea(routes);
  registerExportsArea(routes);
  registerStatementImportRoutes(routes);
  registerStatementReconciliationRoutes(routes);
  registerStatementSearchRoutes(routes);
  registerSourcesArea(routes);
  registerOpenApiRoutes(routes);

  if (deps.staticDir) app.use('*', serveConsole(deps.staticDir));
  app.notFound((c) => errorResponse(c, notFound()));
  app.onError(handleError);
  return app;
}

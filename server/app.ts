import { Hono } from 'hono';
import { requireAdmin } from './http/auth';
import type { AppDeps, AppEnv } from './http/context';
import { errorResponse, handleError, notFound } from './http/errors';
import { noStore } from './http/no-store';
import { RouteRegistry } from './http/routes';
import { securityHeaders } from './http/security-headers';
import { registerAdminAttachmentRoutes } from './routes/admin-attachments';
import { registerAdminCaseMessageRoutes } from './routes/admin-case-messages';
import { registerAdminCaseRoutes } from './routes/admin-cases';
import { registerAdminInterestAreaRoutes } from './routes/admin-interest-areas';
import { registerAdminProfessionalRoutes } from './routes/admin-professionals';
import { registerAdminUserRoutes } from './routes/admin-users';
import { registerCaseReviewRoutes } from './routes/case-review';
import { registerHealthRoutes } from './routes/health';
import { registerLocaleRoutes } from './routes/locales';
import { registerOpenApiRoutes } from './routes/openapi';
import { registerStaticDataRoutes } from './routes/static-data';
import { registerUserRoutes } from './routes/user';
import { serveConsole } from './static';

export type { AppDeps } from './http/context';

export function createApp(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use('*', securityHeaders);
  app.use('*', async (c, next) => {
    c.set('deps', deps);
    await next();
  });
  // Before any route: whatever a later module registers under /v2/admin/ is guarded, and no answer
  // there is cached, the guard's own 401 and 403 included (the registry does it for 'session' routes).
  app.use('/v2/admin/*', noStore, requireAdmin);

  const routes = new RouteRegistry(app);
  registerHealthRoutes(routes);
  registerUserRoutes(routes);
  registerStaticDataRoutes(routes);
  registerLocaleRoutes(routes);
  registerAdminProfessionalRoutes(routes);
  registerAdminUserRoutes(routes);
  registerAdminInterestAreaRoutes(routes);
  registerAdminAttachmentRoutes(routes);
  registerAdminCaseRoutes(routes);
  registerAdminCaseMessageRoutes(routes);
  registerCaseReviewRoutes(routes);
  registerOpenApiRoutes(routes);

  if (deps.staticDir) app.use('*', serveConsole(deps.staticDir));
  app.notFound((c) => errorResponse(c, notFound()));
  app.onError(handleError);
  return app;
}

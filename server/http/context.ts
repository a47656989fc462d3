import type { Context } from 'hono';
import type { Config } from '../config';
import type { Database } from '../db/client';
import type { FileStorage } from '../platform/files/storage';
import type { SessionUser } from '../platform/sessions';
import type { SourceImports } from '../sources/source-import';
import type { StatementImports } from '../statements/import';

export interface AppDeps {
  db: Database;
  config: Config;
  /** Where stored files are read and written (local folder or PostgreSQL chunks). */
  storage: FileStorage;
  /** Injected so tests can move time (session expiry, login throttling) without waiting. */
  clock?: () => Date;
  /** Built console to serve with SPA fallback; omitted, only the API is served. */
  staticDir?: string;
  /** Check every JSON answer against its route's response schema; defaults to `config.checkResponses`. */
  checkResponses?: boolean;
  /** This instance's export runner, woken when a job is queued; without one, jobs wait for another instance. */
  exportRunner?: { wake(): void };
  /** This instance's statement imports (the jobs it runs, their progress). */
  statementImports: StatementImports;
  /** This instance's payouts and invoices imports (decision 0152): the statement imports' jobs, slot and runner id. */
  sourceImports: SourceImports;
  /** Data rows an XLSX export may hold (default: Excel's sheet, 1,048,575); lower in tests. */
  xlsxMaxRows?: number;
}

export interface AppEnv {
  Variables: {
    deps: AppDeps;
    /** Set by the session middlewares once the bearer token has been checked. */
    session: SessionUser;
  };
}

export type AppContext = Context<AppEnv>;

export const now = (c: AppContext): Date => (c.var.deps.clock ?? (() => new Date()))();

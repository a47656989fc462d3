import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { createApp } from './app';
import { readConfig } from './config';
import { openDatabase, SERVER_WARM_CONNECTIONS, statementTimeoutFrom } from './db/client';
import { DataFolderInUseError } from './db/data-folder-lock';
import { createExportRunner } from './exports/runner';
import { prepareSepaGeneration } from './finance/sepa-generate';
import { listen } from './http/listen';
import { keepServingAfterStrayErrors } from './http/process-guard';
import { prepareServerServices } from './server-services';

const projectRoot = fileURLToPath(new URL('..', import.meta.url));
const distDir = join(projectRoot, 'dist');
const CONSOLE_SOURCES = ['src', 'machines', 'locales', 'index.html', 'vite.config.ts', 'package.json'];

function newestModification(path: string): number {
  if (!existsSync(path)) return 0;
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newestModification(join(path, name))));
}

/** Rebuilding takes a while on a small machine, so an up-to-date build is reused. */
function consoleIsStale(): boolean {
  const built = join(distDir, 'index.html');
  if (!existsSync(built)) return true;
  const builtAt = statSync(built).mtimeMs;
  return CONSOLE_SOURCES.some((source) => newestModification(join(projectRoot, source)) > builtAt);
}

async function main(): Promise<void> {
  const config = readConfig();
  const db = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    warmConnections: SERVER_WARM_CONNECTIONS,
    statementTimeoutMs: statementTimeoutFrom(process.env),
  });
  console.log(
    config.databaseUrl ? 'Database: PostgreSQL (DATABASE_URL)' : `Database: PGlite in ${config.dataDir}`,
  );
  const { storage, statementImports, sourceImports } = await prepareServerServices(db, config);

  if (process.env.SKIP_BUILD === '1') console.log('Console build skipped (SKIP_BUILD=1).');
  else if (consoleIsStale()) {
    console.log('Building the console…');
    await build({ root: projectRoot, logLevel: 'warn', mode: 'production' });
  } else console.log('Console build is up to date.');

  // Jobs a stopped instance left running are failed first, then the queue is polled (decision 0077).
  const exportRunner = createExportRunner({
    db,
    storage,
    dataDir: config.dataDir,
    publicUrl: config.publicUrl,
  });
  exportRunner.start();
  const app = createApp({
    db,
    config,
    storage,
    staticDir: distDir,
    exportRunner,
    statementImports,
    sourceImports,
  });
  // Before listening: a SEPA generation never compiles the XSD validator, and no request shares the
  // CPU with it (docs/decisions/0099).
  await prepareSepaGeneration();
  const server = await listen(app, config);
  // From here on failures come from requests; one before this still stops a half-started server.
  keepServingAfterStrayErrors();
  console.log(`
Admin Panel v2 is running at ${server.url}/
  Sign in as   ${config.adminEmail} / ${config.adminPassword}   (ADMIN_EMAIL / ADMIN_PASSWORD)
  Demo users   any seeded user's password is ${config.demoPassword}   (DEMO_PASSWORD; they cannot sign in: not admins)
  API          ${server.url}/v2/openapi.json
`);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) process.exit(1); // a second signal means "now"
    stopping = true;
    console.log(`${signal}: stopping…`);
    await server.close();
    await exportRunner.stop();
    await db.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  // A folder in use is an operator's mistake, not a bug: one line says which process holds it.
  if (error instanceof DataFolderInUseError) console.error(error.message);
  else console.error(error);
  process.exit(1);
});

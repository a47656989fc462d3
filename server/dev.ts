import { createServer } from 'vite';
import { createApp } from './app';
import { readConfig } from './config';
import { openDatabase, statementTimeoutFrom } from './db/client';
import { listen } from './http/listen';
import { keepServingAfterStrayErrors } from './http/process-guard';
import { prepareServerServices } from './server-services';

/** The API on its own port, and Vite's dev server in front of it proxying `/v2` (vite.config.ts). */
async function main(): Promise<void> {
  const config = readConfig({ NODE_ENV: 'development', ...process.env });
  const db = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    statementTimeoutMs: statementTimeoutFrom(process.env),
  });
  const services = await prepareServerServices(db, config);
  const api = await listen(createApp({ db, config, ...services }), config);
  keepServingAfterStrayErrors();
  // vite.config.ts reads the proxy target when the dev server is created, so a non-default PORT still works.
  process.env.API_PROXY_TARGET ??= api.url;
  const vite = await createServer({ mode: 'development' });
  await vite.listen();
  console.log(`API at ${api.url}/v2 — sign in as ${config.adminEmail} / ${config.adminPassword}`);
  vite.printUrls();

  const shutdown = async () => {
    await vite.close();
    await api.close();
    await db.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

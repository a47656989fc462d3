import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { createApp } from '../../server/app';
import { readConfig } from '../../server/config';
import { type Database, openDatabase } from '../../server/db/client';
import { createExportRunner, type ExportRunner } from '../../server/exports/runner';
import { listen } from '../../server/http/listen';
import { prepareDatabase } from '../../server/platform/bootstrap';
import { openFileStorage } from '../../server/platform/files/open-storage';

export interface TestServer {
  url: string;
  adminEmail: string;
  adminPassword: string;
  demoPassword: string;
  db: Database;
  /** The export runner of this instance: the test runs queued exports (`runNext()`) unless it asked for polling. */
  exportRunner: ExportRunner;
  stop(): Promise<void>;
}

/**
 * The whole product as `npm start` runs it — migrated, seeded, console and API on one port over
 * real HTTP — in a fresh temporary DATA_DIR, with PGlite in memory unless `databaseUrl` is given.
 */
export async function startTestServer(
  options: {
    seedUsers?: number;
    databaseUrl?: string;
    smtpUrl?: string;
    /**
     * `polling`: the runner polls and is woken by new jobs, as `npm start` runs it. By default the test
     * runs queued exports itself (`exportRunner.runNext()`), so it can see them queued, and suites that
     * export nothing pay no polling.
     */
    exportRunner?: 'polling' | 'manual';
  } = {},
): Promise<TestServer> {
  const distDir = inject('consoleDir');
  if (!distDir || !existsSync(join(distDir, 'index.html')))
    throw new Error(
      'The console was not built for this run (the vitest global setup builds it when Chromium exists).',
    );
  const dataDir = mkdtempSync(join(tmpdir(), 'admin-panel-test-'));
  // smtpUrl: mail goes to that server (an smtp-server sink in tests) instead of $DATA_DIR/outbox.
  const config = readConfig({ DATA_DIR: dataDir, NODE_ENV: 'test', SMTP_URL: options.smtpUrl });
  const db = await openDatabase({ databaseUrl: options.databaseUrl });
  try {
    await prepareDatabase(db, config, options.seedUsers ?? 60);
    const storage = openFileStorage(config, db);
    const exportRunner = createExportRunner({ db, storage, dataDir, publicUrl: config.publicUrl });
    const polling = options.exportRunner === 'polling';
    if (polling) exportRunner.start();
    const app = createApp({
      db,
      config,
      storage,
      staticDir: distDir,
      exportRunner: polling ? exportRunner : undefined,
    });
    const server = await listen(app, {
      host: '127.0.0.1',
      port: 0,
    });
    return {
      url: server.url,
      adminEmail: config.adminEmail,
      adminPassword: config.adminPassword,
      demoPassword: config.demoPassword,
      db,
      exportRunner,
      async stop() {
        await server.close();
        await exportRunner.stop();
        await db.close();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await db.close();
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}

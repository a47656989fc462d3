import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../../server/app';
import { readConfig } from '../../server/config';
import type { Database } from '../../server/db/client';
import { listen } from '../../server/http/listen';
import type { FileStorage } from '../../server/platform/files/storage';
import { seedDatabase } from '../../server/seed/seed';
import type { TestDatabaseKind } from '../support/databases';
import { openTestStorage, type StorageKind } from '../support/file-storages';
import { bearer, type Clock, issueToken } from './harness';

/** The seed's reference time: fixed, so every run lays the cases out identically. */
export const SEED_NOW = new Date('2026-03-15T00:00:00Z');

/** A seeded database (cases of every status, real voice and attachment files) behind the API. */
export interface CaseWorld {
  db: Database;
  url: string;
  storage: FileStorage;
  adminId: string;
  adminToken: string;
  clock: Clock;
  get(path: string, headers?: Record<string, string>): Promise<Response>;
  post(path: string, headers?: Record<string, string>): Promise<Response>;
  stop(): Promise<void>;
}

export async function startCaseWorld(
  kind: TestDatabaseKind,
  storageKind: StorageKind = 'local',
): Promise<CaseWorld> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cases-api-'));
  const db = await kind.open();
  const storage = openTestStorage(storageKind, db, dataDir);
  await seedDatabase(db, {
    users: 60,
    adminEmail: 'admin@demo.pt',
    adminPassword: 'admin-password-1',
    demoPassword: 'demo-password-1',
    storage,
    now: SEED_NOW,
  });
  const clock: Clock = { current: null };
  const app = createApp({
    db,
    config: readConfig({ NODE_ENV: 'test', DATA_DIR: dataDir }),
    storage,
    clock: () => clock.current ?? new Date(),
  });
  const server = await listen(app, { host: '127.0.0.1', port: 0 });
  const { rows } = await db.query<{ id: string }>(`SELECT id FROM users WHERE role = 'ADMIN'`);
  const adminId = rows[0]!.id;
  const adminToken = await issueToken(db, adminId);
  return {
    db,
    url: server.url,
    storage,
    adminId,
    adminToken,
    clock,
    get: (path, headers = {}) =>
      fetch(`${server.url}${path}`, { headers: { ...bearer(adminToken), ...headers } }),
    post: (path, headers = {}) =>
      fetch(`${server.url}${path}`, { method: 'POST', headers: { ...bearer(adminToken), ...headers } }),
    async stop() {
      await server.close();
      await db.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Papa from 'papaparse';
import { createApp } from '../../server/app';
import { readConfig } from '../../server/config';
import type { Database } from '../../server/db/client';
import { createExportRunner, type ExportRunner } from '../../server/exports/runner';
import { listen } from '../../server/http/listen';
import { LocalFileStorage } from '../../server/platform/files/local-storage';
import { PostgresFileStorage } from '../../server/platform/files/postgres-storage';
import type { FileStorage } from '../../server/platform/files/storage';
import { seedDatabase } from '../../server/seed/seed';
import type { TestDatabaseKind } from '../support/databases';
import { bearer, type Clock, issueToken } from './harness';

/** The seed's reference time (as the cases suites use it): "today" is 2026-03-15 in Lisbon. */
export const SEED_NOW = new Date('2026-03-15T10:00:00Z');
export const PUBLIC_URL = 'https://admin.example.pt';

/** A seeded database behind the API, with an export runner the test drives by hand. */
export interface ExportWorld {
  db: Database;
  url: string;
  dataDir: string;
  /** The files backend a deployment on this database uses by default (server/config.ts). */
  storage: FileStorage;
  adminId: string;
  token: string;
  clock: Clock;
  now: () => Date;
  runner: ExportRunner;
  /** Another instance's runner on the same database and files. */
  newRunner(instanceId: string): ExportRunner;
  /** Another app on the same database with its own DATA_DIR and storage object, as a second server. */
  /** `xlsxMaxRows`: that instance's limit of XLSX data rows (the sheet's by default). */
  startInstance(options?: { xlsxMaxRows?: number }): Promise<{
    get(path: string): Promise<Response>;
    post(path: string, body: unknown): Promise<Response>;
    stop(): Promise<void>;
  }>;
  get(path: string, token?: string): Promise<Response>;
  post(path: string, body?: unknown, token?: string): Promise<Response>;
  stop(): Promise<void>;
}

export async function startExportWorld(kind: TestDatabaseKind): Promise<ExportWorld> {
  const dataDir = mkdtempSync(join(tmpdir(), 'exports-api-'));
  const db = await kind.open();
  await seedDatabase(db, {
    users: 60,
    adminEmail: 'admin@demo.pt',
    adminPassword: 'admin-password-1',
    demoPassword: 'demo-password-1',
    storage: new LocalFileStorage(join(dataDir, 'files')),
    now: SEED_NOW,
  });
  const storageOf = (dir: string): FileStorage =>
    kind.name === 'postgres' ? new PostgresFileStorage(db) : new LocalFileStorage(join(dir, 'files'));
  const storage = storageOf(dataDir);
  const clock: Clock = { current: SEED_NOW };
  const now = () => clock.current ?? new Date();
  const config = readConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, PUBLIC_URL: PUBLIC_URL });
  const newRunner = (instanceId: string) =>
    createExportRunner({ db, storage, dataDir, publicUrl: PUBLIC_URL, clock: now, instanceId, batchSize: 7 });
  const runner = newRunner('instance-a');
  const app = createApp({ db, config, storage, clock: now });
  const server = await listen(app, { host: '127.0.0.1', port: 0 });
  const { rows } = await db.query<{ id: string }>(`SELECT id FROM users WHERE role = 'ADMIN'`);
  const adminId = rows[0]!.id;
  const token = await issueToken(db, adminId);
  return {
    db,
    url: server.url,
    dataDir,
    adminId,
    token,
    clock,
    now,
    storage,
    runner,
    newRunner,
    async startInstance(options = {}) {
      const otherDir = mkdtempSync(join(tmpdir(), 'exports-api-b-'));
      const otherConfig = readConfig({ NODE_ENV: 'test', DATA_DIR: otherDir, PUBLIC_URL: PUBLIC_URL });
      const other = await listen(
        createApp({ db, config: otherConfig, storage: storageOf(otherDir), clock: now, ...options }),
        {
          host: '127.0.0.1',
          port: 0,
        },
      );
      return {
        get: (path) => fetch(`${other.url}${path}`, { headers: bearer(token) }),
        post: (path, body) => postJson(`${other.url}${path}`, body, token),
        async stop() {
          await other.close();
          rmSync(otherDir, { recursive: true, force: true });
        },
      };
    },
    get: (path, as = token) => fetch(`${server.url}${path}`, { headers: bearer(as) }),
    post: (path, body, as = token) => postJson(`${server.url}${path}`, body, as),
    async stop() {
      await server.close();
      await db.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const postJson = (url: string, body: unknown, token: string) =>
  fetch(url, {
    method: 'POST',
    headers: { ...bearer(token), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

/** A CSV export as rows of cells (BOM checked and dropped), read by papaparse with the file's separator. */
export function readCsv(bytes: Uint8Array, separator: ';' | ','): string[][] {
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
  if (!text.startsWith('\uFEFF')) throw new Error('the CSV has no BOM');
  const parsed = Papa.parse<string[]>(text.slice(1), { delimiter: separator, newline: '\r\n' });
  const rows = parsed.data;
  if (rows.at(-1)?.length === 1 && rows.at(-1)![0] === '') rows.pop();
  return rows;
}

const soffice = (() => {
  try {
    return execFileSync('sh', ['-c', 'command -v soffice'], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
})();
export const hasLibreOffice = soffice !== null;

/**
 * An XLSX export as LibreOffice Calc reads it, saved back as CSV with values as shown (`,`, UTF-8).
 * Asynchronous: a blocked event loop would stall the API server running in this same process.
 */
export async function readXlsxWithLibreOffice(bytes: Uint8Array): Promise<string[][]> {
  const dir = mkdtempSync(join(tmpdir(), 'exports-lo-'));
  try {
    const file = join(dir, 'export.xlsx');
    writeFileSync(file, bytes);
    await promisify(execFile)(
      soffice!,
      [
        `-env:UserInstallation=file://${join(dir, 'profile')}`,
        '--headless',
        '--convert-to',
        'csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,true',
        '--outdir',
        dir,
        file,
      ],
      { timeout: 120_000 },
    );
    const parsed = Papa.parse<string[]>(readFileSync(join(dir, 'export.csv'), 'utf8'), { delimiter: ',' });
    return parsed.data.filter((row) => !(row.length === 1 && row[0] === ''));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const lisbonClock = new Intl.DateTimeFormat('sv-SE', {
  timeZone: 'Europe/Lisbon',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});
/** `YYYY-MM-DD HH:MM:SS` on a Lisbon wall clock, written independently of the export writers. */
export const lisbonWallClock = (at: Date) => lisbonClock.format(at);

/** Cents as pt-PT CSV writes money: decimal comma, two decimals, no grouping. */
export const euros = (cents: number, mark = ',') =>
  `${cents < 0 ? '-' : ''}${Math.floor(Math.abs(cents) / 100)}${mark}${String(Math.abs(cents) % 100).padStart(2, '0')}`;

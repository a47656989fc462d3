import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../../server/config';
import { type Database, openDatabase } from '../../server/db/client';
import { createExportFile } from '../../server/exports/export-file';
import { createExportRunner } from '../../server/exports/runner';
import { prepareDatabase } from '../../server/platform/bootstrap';
import { PostgresFileStorage } from '../../server/platform/files/postgres-storage';
import { MIN_SEED_USERS } from '../../server/seed/seed';
import { createPostgresDatabase, testDatabaseKinds } from '../support/databases';
import { type ServerProcess, startServerProcess } from '../support/server-process';
import { type ExportWorld, PUBLIC_URL, startExportWorld } from './exports-support';
import { bearer, issueToken } from './harness';

/**
 * Issue 28 (decision 0125): an export's part file was left behind when its instance was killed: the
 * instance that marked the job failed cleaned its own folder, not the dead one's, and nothing cleaned
 * it later. Every runner round now removes, from its own DATA_DIR, the parts of jobs not running.
 */
const EXPORT_BODY = {
  type: 'USERS',
  startDate: '2023-01-01',
  endDate: '2026-12-31',
  format: 'CSV',
  locale: 'pt-PT',
};
const partsIn = (dataDir: string) => {
  const folder = join(dataDir, 'exports');
  return existsSync(folder) ? readdirSync(folder) : [];
};

describe.each(testDatabaseKinds())('part files of dead exports on $name', (kind) => {
  let world: ExportWorld;
  beforeAll(async () => {
    world = await startExportWorld(kind);
  }, 180_000);
  afterAll(async () => world?.stop());

  const startJob = async () => {
    const response = await world.post('/v2/admin/users/export', EXPORT_BODY);
    expect(response.status).toBe(202);
    return ((await response.json()) as { id: string }).id;
  };
  const runnerOn = (dataDir: string, instanceId: string) =>
    createExportRunner({
      db: world.db,
      storage: world.storage,
      dataDir,
      publicUrl: PUBLIC_URL,
      clock: world.now,
      instanceId,
    });

  it("removes a dead writer's part once its job is failed, whoever failed it, and keeps a running job's", async () => {
    const deadJob = await startJob();
    const dead = runnerOn(world.dataDir, 'instance-dead');
    expect((await dead.claim())?.id).toBe(deadJob);
    // What the dead process left: a part file half written, never finished nor aborted.
    const deadFile = await createExportFile(world.dataDir, world.storage, deadJob, 'CSV');
    await deadFile.write(new TextEncoder().encode('half a file'));

    const otherDir = mkdtempSync(join(tmpdir(), 'exports-other-'));
    const liveJob = await startJob();
    const live = runnerOn(world.dataDir, 'instance-live');
    const started = world.now();
    try {
      world.clock.current = new Date(started.getTime() + 31_000);
      // Another instance, with its own folder, finds the lease run out and fails the job.
      const other = runnerOn(otherDir, 'instance-other');
      expect(await other.recoverAbandoned()).toBe(1);
      expect(await other.removeLeftoverParts()).toBe(0);
      expect(partsIn(world.dataDir)).toEqual([`${deadJob}.csv.part`]);

      // Meanwhile a live instance on the same folder writes another job: its part must stay.
      expect((await live.claim())?.id).toBe(liveJob);
      const liveFile = await createExportFile(world.dataDir, world.storage, liveJob, 'CSV');
      // The dead instance's folder, swept by whatever runs on it next.
      const restarted = runnerOn(world.dataDir, 'instance-restarted');
      expect(await restarted.removeLeftoverParts()).toBe(1);
      expect(partsIn(world.dataDir)).toEqual([`${liveJob}.csv.part`]);
      await world.post(`/v2/admin/exports/${liveJob}/cancel`);
      await liveFile.abort();
      expect(partsIn(world.dataDir)).toEqual([]);
    } finally {
      world.clock.current = started;
      rmSync(otherDir, { recursive: true, force: true });
    }
  });
});

/** Polls a condition another process will make true; the bound only turns a hang into a failure. */
async function eventually(what: string, condition: () => Promise<boolean> | boolean, seconds = 60) {
  for (let attempt = 0; attempt < seconds * 10; attempt++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`never happened: ${what}`);
}

const serverUrl = process.env.TEST_DATABASE_URL;

// Two instances need PostgreSQL: on PGlite the data folder admits one process (decision 0125), which
// finds its own leftovers at its next start — the case below with the second instance left out.
describe.skipIf(!serverUrl)('an instance killed (-9) mid-export on PostgreSQL', () => {
  let database: { url: string; drop(): Promise<void> };
  let db: Database;
  const dataDir = mkdtempSync(join(tmpdir(), 'export-killed-'));
  const otherDir = mkdtempSync(join(tmpdir(), 'export-other-'));
  const env = (dir: string) => ({ DATABASE_URL: database.url, FILES_BACKEND: 'postgres', DATA_DIR: dir });
  let token: string;
  const processes: ServerProcess[] = [];

  beforeAll(async () => {
    database = await createPostgresDatabase(serverUrl!);
    db = await openDatabase({ databaseUrl: database.url });
    await prepareDatabase(db, readConfig(env(dataDir)), MIN_SEED_USERS, new PostgresFileStorage(db));
    // Enough rows that the export is still being written when the instance is killed.
    await db.query(
      `INSERT INTO users (role, email, name) SELECT 'CUSTOMER', 'bulk' || g || '@demo.pt', 'Cliente ' || g
         FROM generate_series(1, 60000) g`,
    );
    const { rows } = await db.query<{ id: string }>(`SELECT id FROM users WHERE role = 'ADMIN'`);
    token = await issueToken(db, rows[0]!.id);
  }, 240_000);
  afterAll(async () => {
    await Promise.all(processes.map((process) => process.stop()));
    await db?.close();
    await database?.drop();
    for (const dir of [dataDir, otherDir]) rmSync(dir, { recursive: true, force: true });
  });

  const jobStatus = async (id: string) =>
    (await db.query<{ status: string }>('SELECT status FROM export_jobs WHERE id = $1', [id])).rows[0]!
      .status;

  it('leaves no part file once another instance failed the job and the killed one is back', async () => {
    const first = await startServerProcess(env(dataDir));
    processes.push(first); // stopped by afterAll if the test fails before it is killed
    const started = await fetch(`${first.url}/v2/admin/users/export`, {
      method: 'POST',
      headers: { ...bearer(token), 'content-type': 'application/json' },
      body: JSON.stringify(EXPORT_BODY),
    });
    expect(started.status).toBe(202);
    const { id } = (await started.json()) as { id: string };
    const part = `${id}.csv.part`;
    await eventually('the first instance writing the part file', async () => partsIn(dataDir).includes(part));
    expect(await jobStatus(id)).toBe('running');
    await first.killHard();

    // The lease (30 s) runs out; another instance, with its own DATA_DIR, fails the job.
    await db.query(`UPDATE export_jobs SET lease_expires_at = now() - interval '1 second' WHERE id = $1`, [
      id,
    ]);
    processes.push(await startServerProcess(env(otherDir)));
    await eventually('the job failed by the other instance', async () => (await jobStatus(id)) === 'failed');
    expect(partsIn(dataDir)).toEqual([part]);

    // The killed instance comes back on its folder: nothing of the dead export remains.
    processes.push(await startServerProcess(env(dataDir)));
    await eventually('the part file removed', () => partsIn(dataDir).length === 0, 20);
  }, 240_000);
});

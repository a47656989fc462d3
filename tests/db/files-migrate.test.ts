import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../server/db/client';
import { migrate } from '../../server/db/migrate';
import { type CopyStep, copyLocalFiles } from '../../server/platform/files/copy-local';
import { LocalFileStorage } from '../../server/platform/files/local-storage';
import { PostgresFileStorage } from '../../server/platform/files/postgres-storage';
import { storeFile } from '../../server/platform/files/store';
import { createPostgresDatabase, testDatabaseKinds } from '../support/databases';
import { readAll } from '../support/file-storages';

const root = join(import.meta.dirname, '../..');

describe.each(testDatabaseKinds())('copying a local files folder into the database on $name', (kind) => {
  let db: Database;
  let dir: string;
  let local: LocalFileStorage;
  const contents = [randomBytes(2 * 1_048_576 + 77), Buffer.from('%PDF-1.4 fatura'), new Uint8Array()];
  beforeAll(async () => {
    db = await kind.open();
    dir = mkdtempSync(join(tmpdir(), 'files-migrate-'));
    local = new LocalFileStorage(join(dir, 'files'));
    for (const [i, content] of contents.entries())
      await storeFile(db, local, { content, originalName: `f${i}`, contentType: 'application/octet-stream' });
  });
  afterAll(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('copies every file, then resumes: only what is missing is copied again, the rest is skipped', async () => {
    const target = new PostgresFileStorage(db);
    const steps: CopyStep[] = [];
    const first = await copyLocalFiles(local, target, db, (step) => steps.push(step));
    expect(first).toMatchObject({ total: 3, copied: 3, present: 0, mismatched: [], rowsWithoutContent: 0 });
    expect(steps.map((step) => `${step.position}/${step.total}`)).toEqual(['1/3', '2/3', '3/3']);
    for (const content of contents) {
      const { sha256 } = await local.put(content);
      expect((await readAll(target.get(sha256))).equals(Buffer.from(content))).toBe(true);
    }

    const again = await copyLocalFiles(local, target, db);
    expect(again).toMatchObject({ copied: 0, present: 3, copiedBytes: 0 });

    // an interrupted earlier run: one content never made it
    const { sha256: lost } = await local.put(contents[0]!);
    await target.delete(lost);
    expect((await copyLocalFiles(local, new PostgresFileStorage(db), db)).rowsWithoutContent).toBe(0);
    expect(await target.has(lost)).toBe(true);
  });

  it('reports a damaged file instead of trusting its name', async () => {
    const damagedDir = mkdtempSync(join(tmpdir(), 'files-damaged-'));
    try {
      const damaged = new LocalFileStorage(damagedDir);
      const { sha256 } = await damaged.put(Buffer.from('original bytes'));
      writeFileSync(damaged.pathOf(sha256), 'tampered bytes');
      const summary = await copyLocalFiles(damaged, new PostgresFileStorage(db), db);
      expect(summary.mismatched).toEqual([sha256]);
      expect(await new PostgresFileStorage(db).has(sha256)).toBe(false);
    } finally {
      rmSync(damagedDir, { recursive: true, force: true });
    }
  });
});

const serverUrl = process.env.TEST_DATABASE_URL;
describe.skipIf(!serverUrl)('npm run files:migrate', () => {
  it('copies DATA_DIR/files into DATABASE_URL, printing progress, and skips everything the second time', async () => {
    const database = await createPostgresDatabase(serverUrl!);
    const dataDir = mkdtempSync(join(tmpdir(), 'files-migrate-cli-'));
    try {
      const db = await openDatabase({ databaseUrl: database.url });
      await migrate(db);
      const local = new LocalFileStorage(join(dataDir, 'files'));
      for (const name of ['a', 'b'])
        await storeFile(db, local, {
          content: Buffer.from(name),
          originalName: name,
          contentType: 'text/plain',
        });
      await db.close();
      const run = () =>
        promisify(execFile)(process.execPath, ['--import', 'tsx', 'server/platform/files/migrate-cli.ts'], {
          cwd: root,
          env: { ...process.env, DATABASE_URL: database.url, DATA_DIR: dataDir },
        });
      const first = await run();
      expect(first.stdout).toContain('[2/2]');
      expect(first.stdout).toContain('Done: 2 copied');
      expect(first.stdout).toContain('Every stored file record has its content in PostgreSQL');
      const second = await run();
      expect(second.stdout).toContain('Done: 0 copied (0.0 MB), 2 already there');
    } finally {
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});

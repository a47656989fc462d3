import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../../server/config';
import { openDatabase } from '../../server/db/client';
import { prepareDatabase } from '../../server/platform/bootstrap';
import { MIN_SEED_USERS } from '../../server/seed/seed';
import { type ServerProcess, startServerProcess } from '../support/server-process';
import { bearer, issueToken } from './harness';

/**
 * Issue 28 (decision 0125): `npm start` twice on one embedded data folder. The second process must
 * stop before it opens the database, naming the first; a kill -9 of the first must leave the folder
 * free and the database whole, with every write it acknowledged.
 */
describe('one process per embedded data folder (two real npm start processes)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'data-folder-lock-'));
  const env = { DATA_DIR: dataDir };
  let token: string;
  let first: ServerProcess | undefined;
  let restarted: ServerProcess | undefined;

  beforeAll(async () => {
    // Seeded small beforehand, so the processes start without seeding the demo dataset.
    const db = await openDatabase({ dataDir });
    await prepareDatabase(db, readConfig({ NODE_ENV: 'test', ...env }), MIN_SEED_USERS);
    const { rows } = await db.query<{ id: string }>(`SELECT id FROM users WHERE role = 'ADMIN'`);
    token = await issueToken(db, rows[0]!.id);
    await db.close();
  }, 120_000);
  afterAll(async () => {
    await Promise.all([first?.stop(), restarted?.stop()]);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses a second process at once, then opens with every acknowledged write after a kill -9', async () => {
    first = await startServerProcess(env);

    const second = await startServerProcess(env).then(
      (serving) => serving,
      (error: Error) => error,
    );
    if (!(second instanceof Error)) await second.stop();
    expect(second).toBeInstanceOf(Error);
    // startServerProcess's message is a fixed first line, then everything the process printed.
    const printed = (second as Error).message.split('\n').slice(1).join('\n').trim();
    expect(printed.split('\n')).toEqual([
      `DATA_DIR ${dataDir} is in use by process ${first.pid}: one process per embedded database; stop it or choose another DATA_DIR`,
    ]);

    const names = Array.from({ length: 5 }, (_, i) => `Área confirmada ${i + 1}`);
    for (const name of names) {
      const created = await fetch(`${first.url}/v2/admin/interest-areas`, {
        method: 'POST',
        headers: { ...bearer(token), 'content-type': 'application/json' },
        body: JSON.stringify({ name }),
      });
      expect(created.status).toBe(201);
    }
    await first.killHard();
    first = undefined;

    restarted = await startServerProcess(env);
    const listed = await fetch(`${restarted.url}/v2/admin/interest-areas`, { headers: bearer(token) });
    expect(listed.status).toBe(200);
    const { items } = (await listed.json()) as { items: { name: string }[] };
    expect(items.map((area) => area.name)).toEqual(expect.arrayContaining(names));
  }, 240_000);
});

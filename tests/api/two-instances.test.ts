import { createHash, randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../../server/config';
import { type Database, openDatabase } from '../../server/db/client';
import { prepareDatabase } from '../../server/platform/bootstrap';
import { PostgresFileStorage } from '../../server/platform/files/postgres-storage';
import { MIN_SEED_USERS } from '../../server/seed/seed';
import { createPostgresDatabase } from '../support/databases';
import { type ServerProcess, startServerProcess } from '../support/server-process';
import { bearer, count, issueToken } from './harness';

const serverUrl = process.env.TEST_DATABASE_URL;
if (!serverUrl)
  console.warn('TEST_DATABASE_URL is not set: the two-instance suite needs a PostgreSQL server.');

const MiB = 1_048_576;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const bytesOf = async (response: Response) => Buffer.from(await response.arrayBuffer());
/** Random bytes behind a WAV header: what the voice upload sniffs as audio/wav (issue 28). */
const wavOf = (size: number) => Buffer.concat([Buffer.from('RIFF\0\0\0\0WAVE'), randomBytes(size - 12)]);

/** Polls a condition the other processes will make true; the bound only turns a hang into a failure. */
async function eventually(what: string, condition: () => Promise<boolean>): Promise<void> {
  for (let attempt = 0; attempt < 600; attempt++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`never happened: ${what}`);
}

/**
 * DESIGN §4: several stateless API instances on one PostgreSQL server. Two real server processes
 * (`npm start` each, FILES_BACKEND=postgres, their own DATA_DIR) share one database; what one stores
 * the other serves, and one killed in the middle of an upload leaves nothing half-stored.
 */
describe.skipIf(!serverUrl)('two server processes on one PostgreSQL database', () => {
  let database: { url: string; drop(): Promise<void> };
  let db: Database;
  let a: ServerProcess | undefined;
  let b: ServerProcess;
  let token: string;

  beforeAll(async () => {
    database = await createPostgresDatabase(serverUrl!);
    db = await openDatabase({ databaseUrl: database.url });
    const env = { DATABASE_URL: database.url, FILES_BACKEND: 'postgres', NODE_ENV: 'test' };
    // Seeded as an instance seeds it, so both processes find a database in use and start at once.
    await prepareDatabase(db, readConfig(env), MIN_SEED_USERS, new PostgresFileStorage(db));
    const { rows } = await db.query<{ id: string }>(`SELECT id FROM users WHERE role = 'ADMIN'`);
    token = await issueToken(db, rows[0]!.id);
    [a, b] = await Promise.all([startServerProcess(env), startServerProcess(env)]);
  }, 240_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await db?.close();
    await database?.drop();
  });

  const upload = (instance: ServerProcess, content: Buffer<ArrayBuffer>, name: string) =>
    fetch(`${instance.url}/v2/admin/files?purpose=voice&name=${encodeURIComponent(name)}`, {
      method: 'POST',
      headers: { ...bearer(token), 'content-type': 'audio/wav' },
      body: content,
    });
  const get = (instance: ServerProcess, path: string, headers: Record<string, string> = {}) =>
    fetch(`${instance.url}${path}`, { headers: { ...bearer(token), ...headers } });

  it('serves through B what A stored: whole, byte ranges across chunks, If-Range and 416', async () => {
    const content = wavOf(3 * MiB + 12_345);
    const stored = await upload(a!, content, 'mensagem longa.wav');
    expect(stored.status).toBe(201);
    const file = (await stored.json()) as { id: string; sha256: string; sizeBytes: number };
    expect(file).toMatchObject({ sha256: sha256(content), sizeBytes: content.byteLength });

    const whole = await get(b, `/v2/admin/attachments/${file.id}/download`);
    expect(whole.status).toBe(200);
    expect(sha256(await bytesOf(whole))).toBe(file.sha256);

    const { rows } = await db.query<{ id: string }>(
      `INSERT INTO case_messages (case_id, sender_id, type, voice_file_id, voice_duration_ms)
       SELECT id, customer_id, 'VOICE', $1, 60000 FROM cases ORDER BY id LIMIT 1 RETURNING id`,
      [file.id],
    );
    const voice = `/v2/admin/case/voice/${rows[0]!.id}`;
    const size = content.byteLength;
    for (const [start, end] of [
      [MiB - 10, MiB + 9],
      [0, 0],
      [2 * MiB, 3 * MiB - 1],
      [size - 100, size - 1],
    ] as const) {
      const partial = await get(b, voice, { range: `bytes=${start}-${end}` });
      expect(partial.status).toBe(206);
      expect(partial.headers.get('content-range')).toBe(`bytes ${start}-${end}/${size}`);
      expect((await bytesOf(partial)).equals(content.subarray(start, end + 1))).toBe(true);
    }
    const etag = `"${file.sha256}"`;
    const same = await get(b, voice, { range: `bytes=${MiB}-${MiB + 4}`, 'if-range': etag });
    expect(same.status).toBe(206);
    expect((await bytesOf(same)).equals(content.subarray(MiB, MiB + 5))).toBe(true);
    const changed = await get(b, voice, { range: 'bytes=0-4', 'if-range': '"another-version"' });
    expect(changed.status).toBe(200);
    expect(sha256(await bytesOf(changed))).toBe(file.sha256);
    const beyond = await get(b, voice, { range: `bytes=${size}-` });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe(`bytes */${size}`);
  });

  it('serves the seeded voice messages from either instance, byte for byte the same', async () => {
    const { rows } = await db.query<{ id: string; sha256: string }>(
      `SELECT m.id, f.sha256 FROM case_messages m JOIN stored_files f ON f.id = m.voice_file_id
        WHERE m.type = 'VOICE' ORDER BY m.id LIMIT 3`,
    );
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows)
      for (const instance of [a!, b]) {
        const response = await get(instance, `/v2/admin/case/voice/${row.id}`);
        expect(response.status).toBe(200);
        expect(sha256(await bytesOf(response))).toBe(row.sha256);
      }
  });

  it('A killed (-9) while it streams an upload: nothing half-stored exists or is served; the retry succeeds', async () => {
    const content = wavOf(24 * MiB);
    const before = {
      chunks: await count(db, 'stored_file_chunks'),
      contents: await count(db, 'stored_contents'),
      files: await count(db, 'stored_files'),
    };
    const writing = `SELECT count(*)::int AS n FROM pg_stat_activity
       WHERE datname = current_database() AND xact_start IS NOT NULL AND query LIKE 'INSERT INTO stored_file_chunks%'`;
    const uploadsInFlight = async () => (await db.query<{ n: number }>(writing)).rows[0]!.n;

    // Half the file goes out, then the client waits (as a slow phone would) with the request open.
    const url = new URL(`${a!.url}/v2/admin/files?purpose=voice&name=grande.wav`);
    const outgoing = request(url, {
      method: 'POST',
      headers: { ...bearer(token), 'content-type': 'audio/wav', 'transfer-encoding': 'chunked' },
    });
    const cut = new Promise<void>((resolve) => {
      outgoing.on('error', () => resolve());
      outgoing.on('response', (response) => response.on('close', () => resolve()).resume());
    });
    try {
      outgoing.write(content.subarray(0, 12 * MiB));
      await eventually('A writing chunks inside its transaction', async () => (await uploadsInFlight()) > 0);
      await a!.killHard();
      a = undefined;
      await cut;
    } finally {
      outgoing.destroy();
    }
    // PostgreSQL sees the connection drop and rolls A's transaction back.
    await eventually('the dead upload rolled back', async () => (await uploadsInFlight()) === 0);
    expect({
      chunks: await count(db, 'stored_file_chunks'),
      contents: await count(db, 'stored_contents'),
      files: await count(db, 'stored_files'),
    }).toEqual(before);
    for (const prefix of [content, content.subarray(0, 12 * MiB)])
      expect(await count(db, 'stored_contents WHERE sha256 = $1', [sha256(prefix)])).toBe(0);

    const retried = await upload(b, content, 'grande.wav');
    expect(retried.status).toBe(201);
    const file = (await retried.json()) as { id: string; sha256: string };
    expect(file.sha256).toBe(sha256(content));
    const download = await get(b, `/v2/admin/attachments/${file.id}/download`);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-length')).toBe(String(content.byteLength));
    expect(sha256(await bytesOf(download))).toBe(file.sha256);
    expect(await count(db, 'stored_file_chunks')).toBe(before.chunks + 24);
  }, 300_000);
});

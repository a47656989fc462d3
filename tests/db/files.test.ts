import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_FILE_BYTES } from '../../contract/limits';
import type { Database } from '../../server/db/client';
import { LocalFileStorage, storedFilePath } from '../../server/platform/files/local-storage';
import { CHUNK_BYTES, PostgresFileStorage } from '../../server/platform/files/postgres-storage';
import { type FileStorage, FileTooLargeError } from '../../server/platform/files/storage';
import { testDatabaseKinds } from '../support/databases';
import { readAll } from '../support/file-storages';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const patterned = (length: number, salt = 0) =>
  Buffer.from(Array.from({ length }, (_, i) => (i * 31 + salt) % 251));

/** A source delivering `content` in pieces of `piece` bytes, as a request body arrives. */
async function* inPieces(content: Uint8Array, piece: number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < content.byteLength; at += piece) yield content.subarray(at, at + piece);
}

interface StorageUnderTest {
  name: string;
  /** Small chunks cross many boundaries with little data; null: the production 1 MiB. */
  chunkBytes: number;
  open(): Promise<{ storage: FileStorage; db?: Database; close(): Promise<void> }>;
}

const SMALL_CHUNK = 64;
const storages: StorageUnderTest[] = [
  {
    name: 'local folder',
    chunkBytes: SMALL_CHUNK,
    async open() {
      const dir = mkdtempSync(join(tmpdir(), 'files-'));
      return { storage: new LocalFileStorage(dir), close: async () => rmSync(dir, { recursive: true }) };
    },
  },
  ...testDatabaseKinds().flatMap((kind) =>
    // The production chunk on the server only: PGlite never holds chunks (FILES_BACKEND=postgres needs DATABASE_URL).
    (kind.name === 'postgres' ? [SMALL_CHUNK, CHUNK_BYTES] : [SMALL_CHUNK]).map((chunkBytes) => ({
      name: `chunks of ${chunkBytes} bytes on ${kind.name}`,
      chunkBytes,
      async open() {
        const db = await kind.open();
        return { storage: new PostgresFileStorage(db, chunkBytes), db, close: () => db.close() };
      },
    })),
  ),
];

describe.each(storages)('file storage: $name', ({ chunkBytes, open }) => {
  let storage: FileStorage;
  let db: Database | undefined;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ storage, db, close } = await open());
  });
  afterAll(async () => close());

  const roundTrip = async (content: Uint8Array) => {
    const stored = await storage.put(inPieces(content, 1000));
    expect(stored).toEqual({ sha256: sha256(content), sizeBytes: content.byteLength });
    expect(await storage.size(stored.sha256)).toBe(content.byteLength);
    expect((await readAll(storage.get(stored.sha256))).equals(Buffer.from(content))).toBe(true);
    return stored;
  };

  it('stores content under its sha256, once for identical bytes, streamed or in memory', async () => {
    const content = Buffer.from('relatório clínico');
    const first = await storage.put(content);
    const second = await storage.put(inPieces(content, 3));
    const third = await storage.put(Buffer.from(content));
    expect(first).toEqual({ sha256: sha256(content), sizeBytes: content.byteLength });
    expect(second).toEqual(first);
    expect(third).toEqual(first);
    if (db) {
      const { rows } = await db.query('SELECT 1 FROM stored_contents WHERE sha256 = $1', [first.sha256]);
      expect(rows).toHaveLength(1);
    }
  });

  it('stores identical content put concurrently once, and both puts succeed', async () => {
    const content = patterned(chunkBytes * 3 + 5, 7);
    const results = await Promise.all([1, 2, 3].map(() => storage.put(inPieces(content, 50))));
    for (const result of results) expect(result.sha256).toBe(sha256(content));
    expect((await readAll(storage.get(sha256(content)))).equals(content)).toBe(true);
    if (db) {
      const { rows } = await db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM stored_file_chunks c JOIN stored_contents s ON s.id = c.content_id WHERE s.sha256 = $1',
        [sha256(content)],
      );
      expect(rows[0]!.n).toBe(4);
    }
  });

  it('stores and reads an empty file', async () => {
    const stored = await roundTrip(new Uint8Array());
    expect(stored.sizeBytes).toBe(0);
  });

  it('round-trips sizes at, just under and just over exact chunk multiples', async () => {
    for (const size of [1, chunkBytes - 1, chunkBytes, chunkBytes + 1, 2 * chunkBytes, 3 * chunkBytes - 1])
      await roundTrip(patterned(size, size % 13));
  });

  it('answers any byte range exactly, across chunk boundaries', async () => {
    const content = patterned(chunkBytes * 4 + 17, 3);
    const { sha256: address } = await storage.put(content);
    await fc.assert(
      fc.asyncProperty(fc.nat(content.byteLength - 1), fc.nat(content.byteLength - 1), async (a, b) => {
        const [start, end] = a <= b ? [a, b] : [b, a];
        const bytes = await readAll(storage.get(address, { start, end }));
        expect(bytes.equals(content.subarray(start, end + 1))).toBe(true);
      }),
      { numRuns: chunkBytes === CHUNK_BYTES ? 15 : 60 },
    );
    for (const [start, end] of [
      [chunkBytes - 1, chunkBytes],
      [chunkBytes, 2 * chunkBytes - 1],
      [0, content.byteLength - 1],
    ] as const)
      expect(
        (await readAll(storage.get(address, { start, end }))).equals(content.subarray(start, end + 1)),
      ).toBe(true);
  });

  it('refuses more than the limit while reading: an endless source ends in FileTooLargeError, nothing stored', async () => {
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(1000).fill(pulled % 256));
      },
    });
    await expect(storage.put(endless, { maxBytes: 10 * chunkBytes })).rejects.toBeInstanceOf(
      FileTooLargeError,
    );
    expect(pulled).toBeLessThan((10 * chunkBytes) / 1000 + 5);
    await expect(storage.put(new Uint8Array(MAX_FILE_BYTES + 1))).rejects.toBeInstanceOf(FileTooLargeError);
    // a caller with a higher limit (exports) may store more than 40 MB worth of its own limit
    const big = patterned(3 * chunkBytes, 1);
    await expect(storage.put(big, { maxBytes: 3 * chunkBytes - 1 })).rejects.toBeInstanceOf(
      FileTooLargeError,
    );
    expect(await storage.has(sha256(big))).toBe(false);
    expect((await storage.put(big, { maxBytes: 3 * chunkBytes })).sizeBytes).toBe(3 * chunkBytes);
  });

  it('leaves nothing visible when the source fails midway', async () => {
    const content = patterned(chunkBytes * 3, 9);
    const failing = (async function* () {
      yield content.subarray(0, chunkBytes * 2);
      throw new Error('client went away');
    })();
    const before = db
      ? (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM stored_file_chunks')).rows[0]!.n
      : 0;
    await expect(storage.put(failing)).rejects.toThrow('client went away');
    expect(await storage.has(sha256(content.subarray(0, chunkBytes * 2)))).toBe(false);
    if (db)
      expect(
        (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM stored_file_chunks')).rows[0]!.n,
      ).toBe(before);
    if (storage instanceof LocalFileStorage) expect(readdirSync(join(storage.filesDir, 'parts'))).toEqual([]);
  });

  it('deletes content; the address then answers null and the stream errors', async () => {
    const content = patterned(chunkBytes + 3, 11);
    const { sha256: address } = await storage.put(content);
    await storage.delete(address);
    expect(await storage.has(address)).toBe(false);
    expect(await storage.size(address)).toBeNull();
    await expect(readAll(storage.get(address))).rejects.toThrow();
  });

  it('refuses an address that is not a sha256', async () => {
    for (const address of ['../etc/passwd', `${'a'.repeat(63)}`, `${'A'.repeat(64)}`, `aa/${'a'.repeat(64)}`])
      await expect(storage.size(address)).rejects.toThrow(/not a sha256/);
  });
});

describe.each(testDatabaseKinds())('chunks on $name: a range reads only the chunks it covers', (kind) => {
  let db: Database;
  beforeAll(async () => {
    db = await kind.open();
  });
  afterAll(async () => db.close());

  it('serves a range from chunk 2 while chunk 0 is gone, and fails the whole read', async () => {
    const storage = new PostgresFileStorage(db, SMALL_CHUNK);
    const content = patterned(SMALL_CHUNK * 4, 5);
    const { sha256: address } = await storage.put(content);
    await db.query(
      'DELETE FROM stored_file_chunks WHERE chunk_no = 0 AND content_id = (SELECT id FROM stored_contents WHERE sha256 = $1)',
      [address],
    );
    const range = { start: SMALL_CHUNK * 2 + 3, end: SMALL_CHUNK * 3 + 1 };
    expect(
      (await readAll(storage.get(address, range))).equals(content.subarray(range.start, range.end + 1)),
    ).toBe(true);
    await expect(readAll(storage.get(address))).rejects.toThrow(/missing bytes in chunk 0/);
  });

  it('writes inside the caller’s transaction: gone with its rollback, published with its commit, once', async () => {
    const storage = new PostgresFileStorage(db, SMALL_CHUNK);
    const content = patterned(SMALL_CHUNK * 2 + 7, 11);
    const address = sha256(content);
    await expect(
      db.transaction(async (tx) => {
        await storage.put(content, { transaction: tx });
        throw new Error('the caller’s change is refused');
      }),
    ).rejects.toThrow(/refused/);
    expect(await storage.has(address)).toBe(false);
    await db.transaction(async (tx) => {
      await storage.put(content, { transaction: tx });
      // the same bytes again in the same transaction: the savepoint rolls the copy back
      expect(await storage.put(content, { transaction: tx })).toEqual({
        sha256: address,
        sizeBytes: content.byteLength,
      });
    });
    expect((await readAll(storage.get(address))).equals(Buffer.from(content))).toBe(true);
    const chunks = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM stored_file_chunks c JOIN stored_contents s ON s.id = c.content_id WHERE s.sha256 = $1',
      [address],
    );
    expect(chunks.rows[0]!.n).toBe(3);
  });
});

describe('local storage paths', () => {
  it('refuses any key it did not mint', () => {
    const dir = tmpdir();
    for (const key of [
      '../etc/passwd',
      'aa/../../x',
      '/etc/passwd',
      `ab/${'a'.repeat(63)}`,
      `AB/${'A'.repeat(64)}`,
    ])
      expect(() => storedFilePath(dir, key)).toThrow();
  });
});

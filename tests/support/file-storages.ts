import { join } from 'node:path';
import type { Database } from '../../server/db/client';
import { LocalFileStorage } from '../../server/platform/files/local-storage';
import { PostgresFileStorage } from '../../server/platform/files/postgres-storage';
import type { FileStorage } from '../../server/platform/files/storage';
import { type TestDatabaseKind, testDatabaseKinds } from './databases';

export type StorageKind = FileStorage['kind'];

/** The storage a test server writes to: `$dataDir/files`, or chunks in the test's own database. */
export function openTestStorage(kind: StorageKind, db: Database, dataDir: string): FileStorage {
  return kind === 'postgres' ? new PostgresFileStorage(db) : new LocalFileStorage(join(dataDir, 'files'));
}

export interface FileSetup {
  /** e.g. "postgres, files in postgres" for describe.each's $name. */
  name: string;
  database: TestDatabaseKind;
  storage: StorageKind;
}

/**
 * The configurations an installation can run (server/config.ts): the local folder on either database,
 * and chunks on a PostgreSQL server (FILES_BACKEND=postgres needs DATABASE_URL). File suites run on each.
 */
export function testFileSetups(): FileSetup[] {
  return testDatabaseKinds().flatMap((database) =>
    (database.name === 'postgres' ? (['local', 'postgres'] as const) : (['local'] as const)).map(
      (storage) => ({
        name: `${database.name}, files in ${storage === 'local' ? 'the local folder' : 'postgres'}`,
        database,
        storage,
      }),
    ),
  );
}

/** Reads a stream whole (tests only: the server never does this). */
export async function readAll(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const part of stream) parts.push(part);
  return Buffer.concat(parts);
}

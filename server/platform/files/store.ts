import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import type { Queryable } from '../../db/client';

/** Specification §9: maximum file size 40 MB. */
export const MAX_FILE_BYTES = 41_943_040;

export class FileTooLargeError extends Error {
  readonly code = 'FILE_TOO_LARGE';
  constructor(readonly sizeBytes: number) {
    super(`file of ${sizeBytes} bytes exceeds the ${MAX_FILE_BYTES}-byte limit`);
  }
}

export interface WrittenContent {
  storageKey: string;
  sha256: string;
  sizeBytes: number;
}

// Keys are content addresses we mint ourselves: nothing a client sends ever becomes part of a path.
const STORAGE_KEY = /^[0-9a-f]{2}\/[0-9a-f]{64}$/;

/** Writes content under its sha256 (identical bytes are stored once); atomic via rename. */
export function writeContent(filesDir: string, content: Uint8Array): WrittenContent {
  if (content.byteLength > MAX_FILE_BYTES) throw new FileTooLargeError(content.byteLength);
  const sha256 = createHash('sha256').update(content).digest('hex');
  const storageKey = `${sha256.slice(0, 2)}/${sha256}`;
  const target = storedFilePath(filesDir, storageKey);
  if (!existsSync(target)) {
    mkdirSync(join(filesDir, sha256.slice(0, 2)), { recursive: true });
    const temporary = `${target}.${randomUUID()}.tmp`;
    writeFileSync(temporary, content);
    renameSync(temporary, target);
  }
  return { storageKey, sha256, sizeBytes: content.byteLength };
}

/** The absolute path of a stored file; refuses any key that is not one of ours. */
export function storedFilePath(filesDir: string, storageKey: string): string {
  if (!STORAGE_KEY.test(storageKey)) throw new Error(`not a storage key: ${JSON.stringify(storageKey)}`);
  const root = resolve(filesDir);
  const path = resolve(root, storageKey);
  if (!path.startsWith(root + sep)) throw new Error('storage key escapes the files folder');
  return path;
}

export interface NewStoredFile {
  content: Uint8Array;
  originalName: string;
  contentType: string;
  /** Callers that need reproducible ids (the seed) pass one. */
  id?: string;
}

/**
 * Writes the bytes and records them in stored_files. Identical content maps to one row (storage_key
 * is unique), so the existing row's id is returned when the bytes were stored before.
 */
export async function saveStoredFile(db: Queryable, filesDir: string, file: NewStoredFile): Promise<string> {
  const written = writeContent(filesDir, file.content);
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO stored_files (id, original_name, content_type, size_bytes, sha256, storage_key)
     VALUES (coalesce($1::uuid, gen_random_uuid()), $2, $3, $4, $5, $6)
     ON CONFLICT (storage_key) DO UPDATE SET storage_key = EXCLUDED.storage_key
     RETURNING id`,
    [
      file.id ?? null,
      file.originalName,
      file.contentType,
      written.sizeBytes,
      written.sha256,
      written.storageKey,
    ],
  );
  return rows[0]!.id;
}

/** A stored_files row as the senders need it. */
export interface StoredFile {
  id: string;
  originalName: string;
  contentType: string;
  sha256: string;
  storageKey: string;
}

export async function findStoredFile(db: Queryable, id: string): Promise<StoredFile | null> {
  const { rows } = await db.query<StoredFile>(
    `SELECT id, original_name AS "originalName", content_type AS "contentType", sha256, storage_key AS "storageKey"
       FROM stored_files WHERE id = $1`,
    [id],
  );
  return rows[0] ?? null;
}

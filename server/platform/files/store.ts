import type { Queryable } from '../../db/client';
import { storageKeyOf } from './local-storage';
import type { ContentSource, FileStorage, StoredContent } from './storage';

export interface NewStoredFile {
  /** Bytes in memory, or a stream (a request body) read once with the limit enforced as it arrives. */
  content: ContentSource;
  originalName: string;
  contentType: string;
  /** Defaults to the specification's 40 MB; a producer of larger files (exports) passes its own. */
  maxBytes?: number;
  /** Callers that need reproducible ids (the seed) pass one. */
  id?: string;
  /**
   * `db` is an open transaction the content must be written in (a caller holding locks must not wait
   * for a second pooled connection; see PutOptions.transaction).
   */
  inTransaction?: true;
}

/**
 * Stores the content, then records it in stored_files; answers the row's id. Every producer of files
 * (attachments, voice, cards, invoices, SEPA files, statements, exports, the seed) comes through here
 * or through `recordStoredFile`, whichever backend `storage` is.
 */
export async function storeFile(db: Queryable, storage: FileStorage, file: NewStoredFile): Promise<string> {
  const stored = await storage.put(file.content, {
    maxBytes: file.maxBytes,
    transaction: file.inTransaction ? db : undefined,
  });
  return recordStoredFile(db, stored, file);
}

/**
 * The stored_files row of content already put into the storage (a route stores the body first, then
 * records the row inside its audited mutation). Identical content maps to one row (storage_key is
 * unique), so the existing row's id is returned when the bytes were stored before.
 */
export async function recordStoredFile(
  db: Queryable,
  stored: StoredContent,
  file: Pick<NewStoredFile, 'originalName' | 'contentType' | 'id'>,
): Promise<string> {
  return (await recordStoredFileRow(db, stored, file)).id;
}

/**
 * As recordStoredFile, answering the row as it is stored: when the bytes were stored before, under the
 * name and type of that first upload, which is what a repeated upload must answer and audit.
 */
export async function recordStoredFileRow(
  db: Queryable,
  stored: StoredContent,
  file: Pick<NewStoredFile, 'originalName' | 'contentType' | 'id'>,
): Promise<Omit<StoredFile, 'sha256'> & StoredContent> {
  const { rows } = await db.query<Omit<StoredFile, 'sha256'>>(
    `INSERT INTO stored_files (id, original_name, content_type, size_bytes, sha256, storage_key)
     VALUES (coalesce($1::uuid, gen_random_uuid()), $2, $3, $4, $5, $6)
     ON CONFLICT (storage_key) DO UPDATE SET storage_key = EXCLUDED.storage_key
     RETURNING id, original_name AS "originalName", content_type AS "contentType"`,
    [
      file.id ?? null,
      file.originalName,
      file.contentType,
      stored.sizeBytes,
      stored.sha256,
      storageKeyOf(stored.sha256),
    ],
  );
  return { ...rows[0]!, ...stored };
}

/** A stored_files row as the senders need it. */
export interface StoredFile {
  id: string;
  originalName: string;
  contentType: string;
  sha256: string;
}

export async function findStoredFile(db: Queryable, id: string): Promise<StoredFile | null> {
  const { rows } = await db.query<StoredFile>(
    `SELECT id, original_name AS "originalName", content_type AS "contentType", sha256
       FROM stored_files WHERE id = $1`,
    [id],
  );
  return rows[0] ?? null;
}

import { MAX_FILE_BYTES } from '../../../contract/limits';
import type { Database, Queryable } from '../../db/client';
import {
  assertSha256,
  type ByteRange,
  ContentMeter,
  type ContentSource,
  chunksOf,
  type FileStorage,
  type PutOptions,
  type StoredContent,
  storedAlready,
} from './storage';

/** 1 MiB: few rows per file, and a range read fetches at most this much more than it needs. */
export const CHUNK_BYTES = 1_048_576;

/**
 * The size of one row a read answers. pg hands bytea over as hex text (twice the bytes) and its binary
 * mode decodes rows as UTF-8, so it cannot carry bytes. At 32 KiB each hex string (64 KiB) stays below
 * V8's large-object threshold (128 KiB), so it is born in the young generation and the next scavenge
 * frees it; larger pieces went to the large-object space, which only a full GC empties, and grew the
 * process by 20–85 MB while a 40 MB file streamed (bench/results/files-storage.md).
 */
export const READ_PIECE_BYTES = 32 * 1024;

/** What one query fetches, as rows of READ_PIECE_BYTES: few round trips, no large string. */
export const READ_BATCH_BYTES = 8 * READ_PIECE_BYTES;

interface ContentRow {
  id: number;
  size_bytes: number;
  chunk_bytes: number;
}

/** The identical content was published first (by this or another instance): ours is rolled back. */
class AlreadyPublished extends Error {}

/**
 * Stored files as rows of `stored_file_chunks` (migration 0016), so every instance on one PostgreSQL
 * server reads what any of them wrote. A put is one transaction (chunks, then the stored_contents row
 * that makes them visible); a get fetches one chunk at a time as the reader asks for more, and only
 * the chunks — and the parts of them — a byte range covers.
 *
 * The put holds one pooled connection for as long as the upload lasts (docs/decisions/0063). Not for
 * PGlite inside another transaction: PGlite has one connection, so the put would wait for it forever.
 */
export class PostgresFileStorage implements FileStorage {
  readonly kind = 'postgres';

  constructor(
    private readonly db: Database,
    /** Tests cut small chunks to cross many boundaries cheaply; the server uses CHUNK_BYTES. */
    private readonly chunkBytes = CHUNK_BYTES,
  ) {}

  async put(source: ContentSource, options: PutOptions = {}): Promise<StoredContent> {
    const maxBytes = options.maxBytes ?? MAX_FILE_BYTES;
    // Inside the caller's transaction nothing may wait for a second connection: the savepoint's
    // ON CONFLICT does the deduplication there.
    if (options.transaction) return this.putWithin(options.transaction, source, new ContentMeter(maxBytes));
    const known = await storedAlready(this, source, maxBytes);
    if (known) return known;
    const meter = new ContentMeter(maxBytes);
    let content: StoredContent | undefined;
    try {
      await this.db.transaction(async (tx) => {
        const { rows } = await tx.query<{ id: number }>(
          `SELECT nextval(pg_get_serial_sequence('stored_contents', 'id')) AS id`,
        );
        const contentId = rows[0]!.id;
        const chunkCount = await this.writeChunks(tx, contentId, source, meter);
        content = meter.result();
        const published = await tx.query(
          `INSERT INTO stored_contents (id, sha256, size_bytes, chunk_bytes) VALUES ($1, $2, $3, $4)
           ON CONFLICT (sha256) DO NOTHING`,
          [contentId, content.sha256, content.sizeBytes, this.chunkBytes],
        );
        if (published.rowCount === 0) throw new AlreadyPublished();
        return chunkCount;
      });
    } catch (error) {
      if (!(error instanceof AlreadyPublished)) throw error;
    }
    return content!;
  }

  /**
   * The put inside the caller's transaction, under a savepoint: when the same content was published
   * meanwhile, its chunks are rolled back and the published copy answers.
   */
  private async putWithin(tx: Queryable, source: ContentSource, meter: ContentMeter): Promise<StoredContent> {
    await tx.query('SAVEPOINT stored_content_put');
    const { rows } = await tx.query<{ id: number }>(
      `SELECT nextval(pg_get_serial_sequence('stored_contents', 'id')) AS id`,
    );
    const contentId = rows[0]!.id;
    await this.writeChunks(tx, contentId, source, meter);
    const content = meter.result();
    const published = await tx.query(
      `INSERT INTO stored_contents (id, sha256, size_bytes, chunk_bytes) VALUES ($1, $2, $3, $4)
       ON CONFLICT (sha256) DO NOTHING`,
      [contentId, content.sha256, content.sizeBytes, this.chunkBytes],
    );
    await tx.query(
      published.rowCount === 0
        ? 'ROLLBACK TO SAVEPOINT stored_content_put'
        : 'RELEASE SAVEPOINT stored_content_put',
    );
    return content;
  }

  /** Cuts the source into chunkBytes rows as it arrives; at most one chunk is held in memory. */
  private async writeChunks(
    tx: Queryable,
    contentId: number,
    source: ContentSource,
    meter: ContentMeter,
  ): Promise<number> {
    const buffer = Buffer.allocUnsafe(this.chunkBytes);
    let filled = 0;
    let chunkNo = 0;
    const flush = async () => {
      await tx.query('INSERT INTO stored_file_chunks (content_id, chunk_no, data) VALUES ($1, $2, $3)', [
        contentId,
        chunkNo++,
        buffer.subarray(0, filled),
      ]);
      filled = 0;
    };
    for await (const chunk of chunksOf(source)) {
      meter.add(chunk);
      let offset = 0;
      while (offset < chunk.byteLength) {
        const taken = Math.min(this.chunkBytes - filled, chunk.byteLength - offset);
        buffer.set(chunk.subarray(offset, offset + taken), filled);
        filled += taken;
        offset += taken;
        if (filled === this.chunkBytes) await flush();
      }
    }
    if (filled > 0) await flush();
    return chunkNo;
  }

  private async find(sha256: string): Promise<ContentRow | null> {
    assertSha256(sha256);
    const { rows } = await this.db.query<ContentRow>(
      'SELECT id, size_bytes, chunk_bytes FROM stored_contents WHERE sha256 = $1',
      [sha256],
    );
    return rows[0] ?? null;
  }

  async size(sha256: string): Promise<number | null> {
    return (await this.find(sha256))?.size_bytes ?? null;
  }

  async has(sha256: string): Promise<boolean> {
    return (await this.find(sha256)) !== null;
  }

  get(sha256: string, range?: ByteRange): ReadableStream<Uint8Array> {
    let next: (() => Promise<Uint8Array | null>) | undefined;
    return new ReadableStream<Uint8Array>(
      {
        pull: async (controller) => {
          try {
            next ??= await this.chunkReader(sha256, range);
            const piece = await next();
            if (piece) controller.enqueue(piece);
            else controller.close();
          } catch (error) {
            // The answer's headers are gone already: the client sees a cut connection, the log says why.
            console.error(`reading stored content ${sha256} failed: ${(error as Error).message}`);
            throw error;
          }
        },
      },
      // Pulled only when the socket wants more: one chunk in flight, whatever the file's size.
      { highWaterMark: 0 },
    );
  }

  /** Answers the range a batch of pieces at a time (never crossing a chunk), then null. */
  private async chunkReader(sha256: string, range?: ByteRange): Promise<() => Promise<Uint8Array | null>> {
    const content = await this.find(sha256);
    if (!content) throw new Error(`stored content ${sha256} is not in the database`);
    const start = range?.start ?? 0;
    const end = Math.min(range?.end ?? content.size_bytes - 1, content.size_bytes - 1);
    let position = start;
    return async () => {
      if (position > end) return null;
      const chunkNo = Math.floor(position / content.chunk_bytes);
      const offset = position - chunkNo * content.chunk_bytes;
      const length = Math.min(content.chunk_bytes - offset, end - position + 1, READ_BATCH_BYTES);
      // substring is 1-based; on EXTERNAL storage it reads only the slices of the value it returns.
      const { rows } = await this.db.query<{ data: Uint8Array }>(
        `SELECT substring(data FROM $3 + piece FOR least($5, $4 - piece)) AS data
           FROM stored_file_chunks, generate_series(0, $4 - 1, $5) AS piece
          WHERE content_id = $1 AND chunk_no = $2
          ORDER BY piece`,
        [content.id, chunkNo, offset + 1, length, READ_PIECE_BYTES],
      );
      const data = rows.length === 1 ? rows[0]!.data : Buffer.concat(rows.map((row) => row.data));
      if (data.byteLength !== length)
        throw new Error(`stored content ${sha256} is missing bytes in chunk ${chunkNo}`);
      position += length;
      return data;
    };
  }

  async delete(sha256: string): Promise<void> {
    assertSha256(sha256);
    await this.db.query('DELETE FROM stored_contents WHERE sha256 = $1', [sha256]);
  }
}

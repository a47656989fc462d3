import { createHash, type Hash } from 'node:crypto';
import type { Queryable } from '../../db/client';

export class FileTooLargeError extends Error {
  readonly code = 'FILE_TOO_LARGE';
  constructor(readonly limitBytes: number) {
    super(`file exceeds the ${limitBytes}-byte limit`);
  }
}

/** Bytes already in memory, or a stream read once (a request body, a generated export). */
export type ContentSource = Uint8Array | AsyncIterable<Uint8Array> | ReadableStream<Uint8Array>;

/** What identifies stored content: its hash (the address) and its length. */
export interface StoredContent {
  sha256: string;
  sizeBytes: number;
}

/** Inclusive byte positions, as in `Content-Range`. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface PutOptions {
  /** Defaults to MAX_FILE_BYTES (`contract/limits.ts`); a caller producing larger files (exports) passes its own limit. */
  maxBytes?: number;
  /**
   * The caller's open transaction: a database backend writes the content inside it (it commits or
   * rolls back with the caller's change) instead of taking a second pooled connection, which a caller
   * holding locks could wait for forever once the pool is busy (SEPA generation under its lock).
   */
  transaction?: Queryable;
}

/**
 * Where stored files live, content-addressed by sha256: identical bytes are stored once, and
 * content is visible to readers only once all of it is stored (a put that fails or dies midway
 * leaves nothing a reader can see). Backends: the local folder and PostgreSQL chunks
 * (docs/decisions/0063).
 */
export interface FileStorage {
  readonly kind: 'local' | 'postgres';
  /** Reads the source once, enforcing the limit while reading (FileTooLargeError, nothing stored). */
  put(source: ContentSource, options?: PutOptions): Promise<StoredContent>;
  /** The stored length, or null when the content is not there. */
  size(sha256: string): Promise<number | null>;
  has(sha256: string): Promise<boolean>;
  /** Streams the content (or the range of it) as it is read; a missing one errors the stream. */
  get(sha256: string, range?: ByteRange): ReadableStream<Uint8Array>;
  /** Removes the content; the caller makes sure no stored_files row still points at it. */
  delete(sha256: string): Promise<void>;
}

const SHA256 = /^[0-9a-f]{64}$/;

export const isSha256 = (text: string): boolean => SHA256.test(text);

/** Addresses are hashes we computed: anything else is refused before it reaches a path or a query. */
export function assertSha256(sha256: string): void {
  if (!isSha256(sha256)) throw new Error(`not a sha256 address: ${JSON.stringify(sha256)}`);
}

export const sha256Of = (content: Uint8Array): string => createHash('sha256').update(content).digest('hex');

/** Hashes and counts what passes through, refusing the first byte past the limit. */
export class ContentMeter {
  private readonly hash: Hash = createHash('sha256');
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  add(chunk: Uint8Array): void {
    this.bytes += chunk.byteLength;
    if (this.bytes > this.maxBytes) throw new FileTooLargeError(this.maxBytes);
    this.hash.update(chunk);
  }

  result(): StoredContent {
    return { sha256: this.hash.digest('hex'), sizeBytes: this.bytes };
  }
}

/** The source as a sequence of chunks, whichever shape it came in. */
export async function* chunksOf(source: ContentSource): AsyncGenerator<Uint8Array> {
  if (source instanceof Uint8Array) yield source;
  else if (source instanceof ReadableStream) {
    const reader = source.getReader();
    let finished = false;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        yield value;
      }
      finished = true;
    } finally {
      // Stopped early (too large, storage failed): stop the sender too rather than drain it.
      if (!finished) await reader.cancel().catch(() => undefined);
      reader.releaseLock();
    }
  } else yield* source;
}

/**
 * The source's first `length` bytes (fewer if it is shorter), read ahead so a caller can tell what the
 * content is before storing it, and the whole content, those bytes included, still to be read.
 * `release()` ends the source unread (the uploader is refused): a request stops being received.
 */
export async function readHead(
  source: ContentSource,
  length: number,
): Promise<{ head: Uint8Array; content: AsyncGenerator<Uint8Array>; release(): Promise<void> }> {
  const chunks = chunksOf(source);
  const held: Uint8Array[] = [];
  let heldBytes = 0;
  while (heldBytes < length) {
    const next = await chunks.next();
    if (next.done) break;
    held.push(next.value);
    heldBytes += next.value.byteLength;
  }
  const joined = Buffer.concat(held);
  async function* content(): AsyncGenerator<Uint8Array> {
    if (joined.byteLength > 0) yield joined;
    yield* chunks;
  }
  return {
    head: joined.subarray(0, length),
    content: content(),
    release: async () => void (await chunks.return(undefined)),
  };
}

/**
 * Bytes already in memory are hashed first: when that content is stored already, nothing is written
 * again. Answers null when the source has to be stored (or is a stream, hashed as it is stored).
 */
export async function storedAlready(
  storage: Pick<FileStorage, 'has'>,
  source: ContentSource,
  maxBytes: number,
): Promise<StoredContent | null> {
  if (!(source instanceof Uint8Array)) return null;
  if (source.byteLength > maxBytes) throw new FileTooLargeError(maxBytes);
  const sha256 = sha256Of(source);
  return (await storage.has(sha256)) ? { sha256, sizeBytes: source.byteLength } : null;
}

/**
 * The whole source in memory, refused at the first byte past `maxBytes` (FileTooLargeError): for content
 * that must be read entirely before anything is stored (a bank statement is parsed, then imported).
 */
export async function readAll(source: ContentSource, maxBytes: number): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for await (const chunk of chunksOf(source)) {
    bytes += chunk.byteLength;
    if (bytes > maxBytes) throw new FileTooLargeError(maxBytes);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, bytes);
}

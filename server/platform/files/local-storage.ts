import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { MAX_FILE_BYTES } from '../../../contract/limits';
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

// Keys are content addresses we mint ourselves: nothing a client sends ever becomes part of a path.
const STORAGE_KEY = /^[0-9a-f]{2}\/[0-9a-f]{64}$/;

/** `stored_files.storage_key`: where the content sits under the files folder (`ab/ab12…`). */
export const storageKeyOf = (sha256: string): string => `${sha256.slice(0, 2)}/${sha256}`;

/** The absolute path of a stored file; refuses any key that is not one of ours. */
export function storedFilePath(filesDir: string, storageKey: string): string {
  if (!STORAGE_KEY.test(storageKey)) throw new Error(`not a storage key: ${JSON.stringify(storageKey)}`);
  const root = resolve(filesDir);
  const path = resolve(root, storageKey);
  if (!path.startsWith(root + sep)) throw new Error('storage key escapes the files folder');
  return path;
}

/** Parts being written live here until they are renamed into place (same file system, so atomic). */
const PARTS = 'parts';

/**
 * A part not written for this long was left by a process that died mid-upload (kill -9, power loss):
 * a live upload writes its part continuously, and no upload of MAX_FILE_BYTES takes an hour.
 */
export const STALE_PART_MS = 3_600_000;

/** The embedded default: `DATA_DIR/files/ab/ab12…`, one file per content. */
export class LocalFileStorage implements FileStorage {
  readonly kind = 'local';

  constructor(readonly filesDir: string) {}

  pathOf(sha256: string): string {
    assertSha256(sha256);
    return storedFilePath(this.filesDir, storageKeyOf(sha256));
  }

  async put(source: ContentSource, options: PutOptions = {}): Promise<StoredContent> {
    const maxBytes = options.maxBytes ?? MAX_FILE_BYTES;
    const known = await storedAlready(this, source, maxBytes);
    if (known) return known;
    const meter = new ContentMeter(maxBytes);
    await mkdir(join(this.filesDir, PARTS), { recursive: true });
    const part = join(this.filesDir, PARTS, `${randomUUID()}.part`);
    try {
      await pipeline(
        Readable.from(
          (async function* metered() {
            for await (const chunk of chunksOf(source)) {
              meter.add(chunk);
              yield chunk;
            }
          })(),
        ),
        createWriteStream(part, { flags: 'wx' }),
      );
      const content = meter.result();
      const target = this.pathOf(content.sha256);
      if ((await this.size(content.sha256)) === null) {
        await mkdir(join(this.filesDir, content.sha256.slice(0, 2)), { recursive: true });
        // rename replaces atomically: a reader sees no file or the whole file, never a part of it.
        await rename(part, target);
      }
      return content;
    } finally {
      await rm(part, { force: true });
    }
  }

  /**
   * Removes the parts a dead process left (not written for STALE_PART_MS), at start: another instance
   * sharing the folder may be writing its own parts right now, so only stale ones go. Returns how many.
   */
  async removeStaleParts(now = Date.now()): Promise<number> {
    const folder = join(this.filesDir, PARTS);
    const names = await readdir(folder).catch(() => [] as string[]);
    let removed = 0;
    for (const name of names.filter((n) => n.endsWith('.part'))) {
      const path = join(folder, name);
      const written = await stat(path).then(
        (found) => found.mtimeMs,
        () => now,
      );
      if (now - written < STALE_PART_MS) continue;
      await rm(path, { force: true });
      removed += 1;
    }
    return removed;
  }

  async size(sha256: string): Promise<number | null> {
    return stat(this.pathOf(sha256)).then(
      (found) => found.size,
      () => null,
    );
  }

  async has(sha256: string): Promise<boolean> {
    return (await this.size(sha256)) !== null;
  }

  get(sha256: string, range?: ByteRange): ReadableStream<Uint8Array> {
    const stream = createReadStream(this.pathOf(sha256), range ?? {});
    return Readable.toWeb(stream) as ReadableStream<Uint8Array>;
  }

  async delete(sha256: string): Promise<void> {
    await rm(this.pathOf(sha256), { force: true });
  }
}

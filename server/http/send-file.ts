import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { type StoredFile, storedFilePath } from '../platform/files/store';
import type { AppContext } from './context';
import { ApiError } from './errors';
import { parseRange } from './range';

export interface SendOptions {
  /** `attachment` makes browsers save the file under its original name; `inline` lets media play it. */
  disposition: 'attachment' | 'inline';
  /** Honour `Range` (audio seeking); downloads answer the whole file. */
  ranges?: boolean;
}

/** RFC 6266/8187: an ASCII fallback for old clients plus the exact UTF-8 name. */
export function contentDisposition(kind: 'attachment' | 'inline', fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/**
 * Streams a stored file from disk. The path comes only from the row's storage key (never from the
 * request), and the byte count from the file itself, so Content-Length cannot lie.
 */
export async function sendStoredFile(
  c: AppContext,
  file: StoredFile,
  options: SendOptions,
): Promise<Response> {
  const path = storedFilePath(join(c.var.deps.config.dataDir, 'files'), file.storageKey);
  const size = await stat(path).then(
    (s) => s.size,
    () => null,
  );
  if (size === null) {
    // The row outlived its bytes (e.g. a database restored without its files folder): worth an alert.
    console.error(`stored file ${file.id} is missing on disk at ${path}`);
    throw new ApiError(404, 'FILE_NOT_FOUND');
  }

  const headers: Record<string, string> = {
    'Content-Type': file.contentType,
    'Content-Disposition': contentDisposition(options.disposition, file.originalName),
    // Content-addressed: the hash is a strong validator for free.
    ETag: `"${file.sha256}"`,
    'Cache-Control': 'private, no-store',
    'X-Content-Type-Options': 'nosniff',
  };
  if (options.ranges) headers['Accept-Ranges'] = 'bytes';

  const ifRange = c.req.header('if-range');
  const range =
    options.ranges && (ifRange === undefined || ifRange === headers.ETag)
      ? parseRange(c.req.header('range'), size)
      : ({ kind: 'full' } as const);
  if (range.kind === 'unsatisfiable')
    return c.body(null, 416, { ...headers, 'Content-Range': `bytes */${size}`, 'Content-Length': '0' });

  const [start, end] = range.kind === 'partial' ? [range.start, range.end] : [0, size - 1];
  if (range.kind === 'partial') headers['Content-Range'] = `bytes ${start}-${end}/${size}`;
  headers['Content-Length'] = String(end - start + 1);
  const status = range.kind === 'partial' ? 206 : 200;
  if (c.req.method === 'HEAD' || size === 0) return c.body(null, status, headers);
  const stream = Readable.toWeb(createReadStream(path, { start, end })) as ReadableStream<Uint8Array>;
  return c.body(stream, status, headers);
}

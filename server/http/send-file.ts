import { AUDIO_TYPES, DOCUMENT_TYPES } from '../../domain/file-type';
import type { StoredFile } from '../platform/files/store';
import type { AppContext } from './context';
import { ApiError } from './errors';
import { parseRange } from './range';

export interface SendOptions {
  /** `attachment` makes browsers save the file under its original name; `inline` lets media play it. */
  disposition: 'attachment' | 'inline';
  /**
   * The stored types this route hands out as they are stored; any other goes as
   * `application/octet-stream`, `attachment`, so a file that is not what the route serves (an HTML page
   * stored before uploads were sniffed) is never shown from the console's own origin. Default: every
   * type an upload may be sniffed as, and the XML the server writes itself (SEPA pain.001).
   */
  servedTypes?: readonly string[];
  /** Honour `Range` (audio seeking); downloads answer the whole file. */
  ranges?: boolean;
  /** The code when the row outlived its bytes; `FILE_NOT_FOUND` unless the route's contract says otherwise. */
  missingCode?: string;
}

const SERVED_TYPES: readonly string[] = [...DOCUMENT_TYPES, ...AUDIO_TYPES, 'application/xml'];

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
 * Streams a stored file from the storage (local folder or PostgreSQL chunks). The content is found
 * by the row's sha256 alone (never by anything in the request), and the byte count comes from the
 * storage itself, so Content-Length cannot lie.
 */
export async function sendStoredFile(
  c: AppContext,
  file: StoredFile,
  options: SendOptions,
): Promise<Response> {
  const storage = c.var.deps.storage;
  const size = await storage.size(file.sha256);
  if (size === null) {
    // The row outlived its bytes (e.g. a database restored without its files folder): worth an alert.
    console.error(`stored file ${file.id} is missing from the ${storage.kind} storage (${file.sha256})`);
    throw new ApiError(404, options.missingCode ?? 'FILE_NOT_FOUND');
  }

  const served = (options.servedTypes ?? SERVED_TYPES).includes(file.contentType);
  const headers: Record<string, string> = {
    'Content-Type': served ? file.contentType : 'application/octet-stream',
    'Content-Disposition': contentDisposition(served ? options.disposition : 'attachment', file.originalName),
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
  return c.body(storage.get(file.sha256, { start, end }), status, headers);
}

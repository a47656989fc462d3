import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { errorBodySchema } from '../../../contract/common';
import { ID, idParams } from '../../http/actor';
import type { RouteRegistry } from '../../http/routes';
import { refuse } from '../refusal';
import { storedFilePath } from './store';

const attachmentNotFound = () => refuse('ATTACHMENT_NOT_FOUND');

/** RFC 6266/5987: the original name survives any character, and no quote or newline can break the header. */
export function attachmentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

export function registerAttachmentRoutes(routes: RouteRegistry): void {
  routes.add({
    method: 'get',
    path: `/v2/admin/attachments/${ID}/download`,
    summary: 'Download a stored file (college cards, avatars) by id',
    tags: ['attachments'],
    auth: 'admin',
    params: idParams,
    responses: {
      200: {
        description: 'The file as stored, with its original name',
        contentType: 'application/octet-stream',
      },
      404: { description: 'ATTACHMENT_NOT_FOUND', schema: errorBodySchema },
    },
    async handler(c, { params }) {
      const { rows } = await c.var.deps.db.query<{
        original_name: string;
        content_type: string;
        storage_key: string;
      }>('SELECT original_name, content_type, storage_key FROM stored_files WHERE id = $1', [params.id]);
      const file = rows[0];
      if (!file) throw attachmentNotFound();
      // The path comes from the stored key alone (checked again by storedFilePath), never from the request.
      const path = storedFilePath(join(c.var.deps.config.dataDir, 'files'), file.storage_key);
      const size = await stat(path).then(
        (s) => s.size,
        () => null,
      );
      if (size === null) {
        console.error(`stored file ${params.id} is missing on disk at ${path}`);
        throw attachmentNotFound();
      }
      const body = Readable.toWeb(createReadStream(path)) as ReadableStream<Uint8Array>;
      return c.body(body, 200, {
        'Content-Type': file.content_type,
        'Content-Length': String(size),
        'Content-Disposition': attachmentDisposition(file.original_name),
        'X-Content-Type-Options': 'nosniff',
        'Cache-Control': 'private, no-store',
      });
    },
  });
}

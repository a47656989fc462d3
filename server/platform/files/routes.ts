import { errorBodySchema } from '../../../contract/common';
import { fileUploadQuerySchema, storedFileSchema } from '../../../contract/files';
import { actorOf, ID, idParams } from '../../http/actor';
import { type RouteRegistry, UPLOAD_BODY_LIMIT_BYTES } from '../../http/routes';
import { sendStoredFile } from '../../http/send-file';
import { refusingOversize, requestBody } from '../../http/stream';
import { mutation } from '../mutation';
import { refuse } from '../refusal';
import { findStoredFile, recordStoredFile } from './store';

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
      const file = await findStoredFile(c.var.deps.db, params.id);
      if (!file) throw refuse('ATTACHMENT_NOT_FOUND');
      return sendStoredFile(c, file, { disposition: 'attachment', missingCode: 'ATTACHMENT_NOT_FOUND' });
    },
  });

  routes.add({
    method: 'post',
    path: '/v2/admin/files',
    summary:
      'Store a file: the body is the file (up to 40 MB, streamed into the storage), its type in Content-Type',
    tags: ['attachments'],
    auth: 'admin',
    query: fileUploadQuerySchema,
    maxBodyBytes: UPLOAD_BODY_LIMIT_BYTES,
    rawBody: { description: 'The file itself, streamed into the storage; its type in Content-Type' },
    responses: {
      201: {
        description: 'Stored (identical content is stored once: its row is answered)',
        schema: storedFileSchema,
      },
      413: { description: 'PAYLOAD_TOO_LARGE: over 40 MB; nothing was stored', schema: errorBodySchema },
    },
    async handler(c, { query }) {
      const { db, storage } = c.var.deps;
      const contentType = c.req.header('content-type')?.trim() || 'application/octet-stream';
      const stored = await refusingOversize(
        storage.put(requestBody(c), { maxBytes: UPLOAD_BODY_LIMIT_BYTES }),
      );
      const file = { originalName: query.name, contentType, ...stored };
      const id = await mutation(
        db,
        actorOf(c),
        { action: 'file.store', entityType: 'stored_file' },
        async (tx) => {
          const id = await recordStoredFile(tx, stored, file);
          return { result: id, entityId: id, after: file };
        },
      );
      return c.json({ id, ...file }, 201);
    },
  });
}

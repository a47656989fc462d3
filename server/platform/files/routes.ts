import { errorBodySchema } from '../../../contract/common';
import { fileUploadQuerySchema, storedFileSchema } from '../../../contract/files';
import { MAX_FILE_BYTES } from '../../../contract/limits';
import { allowedFileType, FILE_PURPOSE_TYPES, FILE_SIGNATURE_BYTES } from '../../../domain/file-type';
import { actorOf, ID, idParams } from '../../http/actor';
import type { RouteRegistry } from '../../http/routes';
import { sendStoredFile } from '../../http/send-file';
import { refusingOversize, requestBody } from '../../http/stream';
import { mutation } from '../mutation';
import { refuse } from '../refusal';
import { readHead } from './storage';
import { findStoredFile, recordStoredFileRow } from './store';

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
      return sendStoredFile(c, file, {
        disposition: 'attachment',
        servedTypes: FILE_PURPOSE_TYPES.attachment,
        missingCode: 'ATTACHMENT_NOT_FOUND',
      });
    },
  });

  routes.add({
    method: 'post',
    path: '/v2/admin/files',
    summary:
      'Store a file: the body is the file (up to 40 MB, streamed into the storage); its type is sniffed from its bytes',
    tags: ['attachments'],
    auth: 'admin',
    query: fileUploadQuerySchema,
    maxBodyBytes: MAX_FILE_BYTES,
    rawBody: {
      description:
        'The file itself, streamed into the storage. Its Content-Type is not trusted: the type stored is the one its bytes are',
    },
    responses: {
      201: {
        description:
          'Stored (identical content is stored once: its row is answered, with the name and type it was first stored under)',
        schema: storedFileSchema,
      },
      413: { description: 'PAYLOAD_TOO_LARGE: over 40 MB; nothing was stored', schema: errorBodySchema },
      415: {
        description:
          "FILE_TYPE_NOT_ALLOWED: the bytes are none of the purpose's types (attachment: PDF, JPEG, PNG, GIF, WebP; voice: MP3, OGG, WAV, M4A, WebM); nothing was stored",
        schema: errorBodySchema,
      },
    },
    async handler(c, { query }) {
      const { db, storage } = c.var.deps;
      const { head, content, release } = await readHead(requestBody(c), FILE_SIGNATURE_BYTES);
      const contentType = allowedFileType(head, query.purpose);
      if (!contentType) {
        await release();
        throw refuse('FILE_TYPE_NOT_ALLOWED');
      }
      const stored = await refusingOversize(storage.put(content, { maxBytes: MAX_FILE_BYTES }));
      const file = await mutation(
        db,
        actorOf(c),
        { action: 'file.store', entityType: 'stored_file' },
        async (tx) => {
          const row = await recordStoredFileRow(tx, stored, { originalName: query.name, contentType });
          return { result: row, entityId: row.id, after: row };
        },
      );
      return c.json(file, 201);
    },
  });
}

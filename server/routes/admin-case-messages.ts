import { z } from 'zod';
import { findStoredFile, type SendOptions, sendStoredFile } from '../files/send';
import type { AppContext } from '../http/context';
import { ApiError, errorBodySchema } from '../http/errors';
import type { RouteRegistry } from '../http/routes';
import { caseNotFound, findCase } from '../services/cases';
import { attachmentFileId, listCaseMessages, voiceFileId } from '../services/cases-messages';
import { caseIdParamsSchema, caseItemSchema } from './admin-cases';

const pageQuerySchema = z.object({
  limit: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.coerce.number().int().min(1).max(500).default(100),
  ),
  cursor: z.string().max(2000).optional(),
});

const attachmentSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  contentType: z.string(),
  sizeBytes: z.number().int(),
  url: z.string(),
});

const messageSchema = z.object({
  id: z.uuid(),
  type: z.enum(['TEXT', 'CALL', 'VOICE']),
  sender: z.object({ id: z.uuid(), name: z.string(), role: z.enum(['ADMIN', 'PROFESSIONAL', 'CUSTOMER']) }),
  createdAt: z.iso.datetime(),
  text: z.string().nullable(),
  callDurationSeconds: z.number().int().nullable(),
  voice: z
    .object({
      durationSeconds: z.number(),
      contentType: z.string(),
      sizeBytes: z.number().int(),
      url: z.string(),
    })
    .nullable(),
  attachments: z.array(attachmentSchema),
});

const FILE_RESPONSES = (what: string, notFoundCode: string) => ({
  404: {
    description: `No such ${what} (\`${notFoundCode}\`), or its bytes are gone (\`FILE_NOT_FOUND\`)`,
    schema: errorBodySchema,
  },
});

async function sendFileById(
  c: AppContext,
  fileId: string | null,
  notFoundCode: string,
  options: SendOptions,
) {
  const file = fileId ? await findStoredFile(c.var.deps.db, fileId) : null;
  if (!file) throw new ApiError(404, notFoundCode);
  return sendStoredFile(c, file, options);
}

export function registerAdminCaseMessageRoutes(routes: RouteRegistry): void {
  routes.add({
    method: 'get',
    path: '/v2/admin/case/:id/messages',
    summary: "A case's messages, oldest first, with the case itself for the chat header",
    tags: ['cases'],
    auth: 'admin',
    params: caseIdParamsSchema,
    query: pageQuerySchema,
    responses: {
      200: {
        description: 'One page of messages; `case` is the same on every page',
        schema: z.object({
          case: caseItemSchema,
          items: z.array(messageSchema),
          nextCursor: z.string().nullable(),
          total: z.number().int(),
        }),
      },
      404: { description: 'No such case (`CASE_NOT_FOUND`)', schema: errorBodySchema },
    },
    async handler(c, { params, query }) {
      const found = await findCase(c.var.deps.db, params.id);
      if (!found) throw caseNotFound();
      return c.json({ case: found, ...(await listCaseMessages(c.var.deps.db, found.id, query)) });
    },
  });

  routes.add({
    method: 'get',
    path: '/v2/admin/case/voice/:id',
    summary: 'The audio of a VOICE message, with byte ranges for seeking',
    tags: ['cases'],
    auth: 'admin',
    params: z.object({ id: z.string().describe('The VOICE message id') }),
    responses: {
      200: { description: 'The whole file', contentType: 'audio/wav' },
      206: { description: 'The requested byte range (`Content-Range`)', contentType: 'audio/wav' },
      416: { description: 'A range outside the file or malformed (`Content-Range: bytes */size`)' },
      ...FILE_RESPONSES('VOICE message', 'VOICE_MESSAGE_NOT_FOUND'),
    },
    async handler(c, { params }) {
      const fileId = await voiceFileId(c.var.deps.db, params.id);
      return sendFileById(c, fileId, 'VOICE_MESSAGE_NOT_FOUND', { disposition: 'inline', ranges: true });
    },
  });

  routes.add({
    method: 'get',
    path: '/v2/admin/case-message/attachments/download',
    summary: "Download a case message's attachment under its original name",
    tags: ['cases'],
    auth: 'admin',
    query: z.object({ id: z.uuid().describe('The attachment id, as listed on its message') }),
    responses: {
      200: {
        description: 'The file, `Content-Disposition: attachment`',
        contentType: 'application/octet-stream',
      },
      ...FILE_RESPONSES('attachment', 'ATTACHMENT_NOT_FOUND'),
    },
    async handler(c, { query }) {
      const fileId = await attachmentFileId(c.var.deps.db, query.id);
      return sendFileById(c, fileId, 'ATTACHMENT_NOT_FOUND', { disposition: 'attachment' });
    },
  });
}

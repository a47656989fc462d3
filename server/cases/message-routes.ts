import {
  attachmentQuerySchema,
  caseIdParamsSchema,
  messagePageQuerySchema,
  messagePageSchema,
  voiceParamsSchema,
} from '../../contract/cases';
import { errorBodySchema } from '../../contract/common';
import { FILE_PURPOSE_TYPES } from '../../domain/file-type';
import type { AppContext } from '../http/context';
import type { RouteRegistry } from '../http/routes';
import { type SendOptions, sendStoredFile } from '../http/send-file';
import { findStoredFile } from '../platform/files/store';
import { refuse } from '../platform/refusal';
import { caseNotFound, findCase } from './list';
import { attachmentFileId, listCaseMessages, voiceFileId } from './messages';

const FILE_RESPONSES = (what: string, notFoundCode: string) => ({
  404: {
    description: `No such ${what} (\`${notFoundCode}\`), or its bytes are gone (\`FILE_NOT_FOUND\`)`,
    schema: errorBodySchema,
  },
});

async function sendFileById(
  c: AppContext,
  fileId: string | null,
  notFoundCode: 'VOICE_MESSAGE_NOT_FOUND' | 'ATTACHMENT_NOT_FOUND',
  options: SendOptions,
) {
  const file = fileId ? await findStoredFile(c.var.deps.db, fileId) : null;
  if (!file) throw refuse(notFoundCode);
  return sendStoredFile(c, file, options);
}

export function registerCaseMessageRoutes(routes: RouteRegistry): void {
  routes.add({
    method: 'get',
    path: '/v2/admin/case/:id/messages',
    summary: "A case's messages, oldest first, with the case itself for the chat header",
    tags: ['cases'],
    auth: 'admin',
    params: caseIdParamsSchema,
    query: messagePageQuerySchema,
    responses: {
      200: {
        description: 'One page of messages; `case` is the same on every page',
        schema: messagePageSchema,
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
    params: voiceParamsSchema,
    responses: {
      200: { description: 'The whole file', contentType: 'audio/wav' },
      206: { description: 'The requested byte range (`Content-Range`)', contentType: 'audio/wav' },
      416: { description: 'A range outside the file or malformed (`Content-Range: bytes */size`)' },
      ...FILE_RESPONSES('VOICE message', 'VOICE_MESSAGE_NOT_FOUND'),
    },
    async handler(c, { params }) {
      const fileId = await voiceFileId(c.var.deps.db, params.id);
      return sendFileById(c, fileId, 'VOICE_MESSAGE_NOT_FOUND', {
        disposition: 'inline',
        servedTypes: FILE_PURPOSE_TYPES.voice,
        ranges: true,
      });
    },
  });

  routes.add({
    method: 'get',
    path: '/v2/admin/case-message/attachments/download',
    summary: "Download a case message's attachment under its original name",
    tags: ['cases'],
    auth: 'admin',
    query: attachmentQuerySchema,
    responses: {
      200: {
        description: 'The file, `Content-Disposition: attachment`',
        contentType: 'application/octet-stream',
      },
      ...FILE_RESPONSES('attachment', 'ATTACHMENT_NOT_FOUND'),
    },
    async handler(c, { query }) {
      const fileId = await attachmentFileId(c.var.deps.db, query.id);
      return sendFileById(c, fileId, 'ATTACHMENT_NOT_FOUND', {
        disposition: 'attachment',
        servedTypes: FILE_PURPOSE_TYPES.attachment,
      });
    },
  });
}

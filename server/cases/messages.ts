import type { z } from 'zod';
import type { caseAttachmentSchema, caseMessageSchema } from '../../contract/cases';
import type { Gender, MessageType, Role } from '../../contract/statuses';
import type { Queryable } from '../db/client';
import { decodeCursor, type KeysetQuery, keysetRows, pageOf, SqlParams } from '../db/list';
import { isUuid } from './ids';

export type CaseMessage = z.infer<typeof caseMessageSchema>;
export type MessageAttachment = z.infer<typeof caseAttachmentSchema>;

// Relative to the API base: the console prefixes its configured host, as for every other call.
export const voiceUrl = (messageId: string) => `/v2/admin/case/voice/${messageId}`;
export const attachmentUrl = (attachmentId: string) =>
  `/v2/admin/case-message/attachments/download?id=${attachmentId}`;

interface MessageRow {
  id: string;
  type: MessageType;
  sender_id: string;
  sender_name: string;
  sender_role: Role;
  sender_gender: Gender | null;
  created_at: Date;
  text: string | null;
  call_duration_seconds: number | null;
  voice_duration_ms: number | null;
  voice_content_type: string | null;
  voice_size_bytes: number | null;
}

interface AttachmentRow {
  id: string;
  message_id: string;
  original_name: string;
  content_type: string;
  size_bytes: number;
}

/** Messages have one order, so their cursor binds nothing but the format's version. */
const NO_BOUND = {};

/** Oldest first, keyset on (created_at, id); the caller has already checked that the case exists. */
export async function listCaseMessages(
  db: Queryable,
  caseId: string,
  page: { limit: number; cursor?: string | undefined },
) {
  const params = new SqlParams();
  const keyset: KeysetQuery = {
    select: `m.id, m.type, m.sender_id, u.name AS sender_name, u.role AS sender_role, u.gender AS sender_gender, m.created_at, m.text,
             m.call_duration_seconds, m.voice_duration_ms, f.content_type AS voice_content_type,
             f.size_bytes AS voice_size_bytes`,
    from: `FROM case_messages m
       JOIN users u ON u.id = m.sender_id
       LEFT JOIN stored_files f ON f.id = m.voice_file_id`,
    where: [`m.case_id = ${params.add(caseId)}`],
    params,
    sort: { sql: 'm.created_at', type: 'timestamptz' },
    id: 'm.id',
    order: 'asc',
  };
  const position = page.cursor ? decodeCursor(page.cursor, NO_BOUND, 'timestamptz') : null;
  const rows = await keysetRows<MessageRow>(db, keyset, position, page.limit + 1);
  const total = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM case_messages WHERE case_id = $1',
    [caseId],
  );
  const { rows: pageRows, nextCursor } = pageOf(rows, page.limit, NO_BOUND);
  const attachments = await attachmentsOf(
    db,
    pageRows.map((row) => row.id),
  );
  return {
    items: pageRows.map((row) => toMessage(row, attachments.get(row.id) ?? [])),
    nextCursor,
    total: total.rows[0]!.n,
  };
}

async function attachmentsOf(db: Queryable, messageIds: string[]): Promise<Map<string, MessageAttachment[]>> {
  const byMessage = new Map<string, MessageAttachment[]>();
  if (messageIds.length === 0) return byMessage;
  const { rows } = await db.query<AttachmentRow>(
    `SELECT a.id, a.message_id, f.original_name, f.content_type, f.size_bytes
       FROM case_message_attachments a JOIN stored_files f ON f.id = a.file_id
      WHERE a.message_id = ANY($1::uuid[])
      ORDER BY a.created_at, a.id`,
    [messageIds],
  );
  for (const row of rows) {
    const list = byMessage.get(row.message_id) ?? [];
    list.push({
      id: row.id,
      name: row.original_name,
      contentType: row.content_type,
      sizeBytes: row.size_bytes,
      url: attachmentUrl(row.id),
    });
    byMessage.set(row.message_id, list);
  }
  return byMessage;
}

function toMessage(row: MessageRow, attachments: MessageAttachment[]): CaseMessage {
  return {
    id: row.id,
    type: row.type,
    sender: { id: row.sender_id, name: row.sender_name, role: row.sender_role, gender: row.sender_gender },
    createdAt: row.created_at.toISOString(),
    text: row.type === 'TEXT' ? row.text : null,
    callDurationSeconds: row.type === 'CALL' ? row.call_duration_seconds : null,
    voice:
      row.type === 'VOICE' && row.voice_duration_ms !== null
        ? {
            durationSeconds: row.voice_duration_ms / 1000,
            contentType: row.voice_content_type ?? 'application/octet-stream',
            sizeBytes: row.voice_size_bytes ?? 0,
            url: voiceUrl(row.id),
          }
        : null,
    attachments,
  };
}

/** The stored file behind a VOICE message; null for any other message or id. */
export async function voiceFileId(db: Queryable, messageId: string): Promise<string | null> {
  if (!isUuid(messageId)) return null;
  const { rows } = await db.query<{ file_id: string }>(
    `SELECT voice_file_id AS file_id FROM case_messages WHERE id = $1 AND type = 'VOICE'`,
    [messageId],
  );
  return rows[0]?.file_id ?? null;
}

export async function attachmentFileId(db: Queryable, attachmentId: string): Promise<string | null> {
  if (!isUuid(attachmentId)) return null;
  const { rows } = await db.query<{ file_id: string }>(
    'SELECT file_id FROM case_message_attachments WHERE id = $1',
    [attachmentId],
  );
  return rows[0]?.file_id ?? null;
}

import type { z } from 'zod';
import type { settlementInvoiceSchema } from '../../contract/finance';
import {
  INVOICE_SIGNATURE_BYTES,
  type InvoiceType,
  invoiceFileName,
  sniffInvoiceType,
} from '../../domain/invoice-file';
import type { Database, Queryable } from '../db/client';
import { type ContentSource, type FileStorage, readHead } from '../platform/files/storage';
import { findStoredFile, recordStoredFile, type StoredFile } from '../platform/files/store';
import { type Actor, mutation } from '../platform/mutation';
import { refuse } from '../platform/refusal';
import { lockSettlement } from './settlement-rows';

export type SettlementInvoice = z.infer<typeof settlementInvoiceSchema>;

export interface InvoiceUpload {
  /** The file as it arrives (a request body is streamed into the storage, never held whole). */
  content: ContentSource;
  /** Over this, the storage refuses it with FileTooLargeError. */
  maxBytes: number;
  /** The uploader's name for it: only the base of it is kept, with the extension of what it really is. */
  fileName: string;
}

/**
 * Stores the doctor's invoice for a settlement, replacing any previous one (the old file stays stored:
 * the audit row's `before` still points at it). The type is sniffed from the bytes — PDF, JPEG or PNG —
 * whatever the name or the request's Content-Type say (docs/decisions/0067).
 */
export async function uploadInvoice(
  db: Database,
  storage: FileStorage,
  actor: Actor,
  settlementId: string,
  upload: InvoiceUpload,
): Promise<SettlementInvoice> {
  const { head, content, release } = await readHead(upload.content, INVOICE_SIGNATURE_BYTES);
  const contentType = sniffInvoiceType(head);
  if (!contentType) {
    await release();
    throw refuse('INVOICE_TYPE_NOT_ALLOWED');
  }
  const fileName = invoiceFileName(upload.fileName, contentType);
  // Content-addressed: bytes stored before the transaction and left unreferenced by a refusal are
  // harmless, and the storage's own writes never wait on the transaction's locks.
  const stored = await storage.put(content, { maxBytes: upload.maxBytes });
  return mutation(db, actor, { action: 'settlement.invoice', entityType: 'settlement' }, async (tx) => {
    const row = await lockSettlement(tx, settlementId);
    const before = await invoiceOf(tx, settlementId);
    const fileId = await recordStoredFile(tx, stored, { originalName: fileName, contentType });
    await tx.query(
      `UPDATE settlements SET invoice_file_id = $2, invoice_name = $3, invoice_content_type = $4, updated_at = $5
        WHERE id = $1`,
      [row.id, fileId, fileName, contentType, actor.at],
    );
    const invoice = { settlementId, fileId, fileName, contentType, sizeBytes: stored.sizeBytes };
    return { entityId: settlementId, before: { invoice: before }, after: { invoice }, result: invoice };
  });
}

export interface StoredInvoice {
  fileId: string;
  fileName: string;
  contentType: InvoiceType | string;
}

/**
 * The settlement's invoice as it is downloaded. Invoices from before migration 0017 (the demo seed) have
 * no name or type of their own: the stored file's are used.
 */
export async function invoiceOf(db: Queryable, settlementId: string): Promise<StoredInvoice | null> {
  const { rows } = await db.query<StoredInvoice>(
    `SELECT f.id AS "fileId", coalesce(s.invoice_name, f.original_name) AS "fileName",
            coalesce(s.invoice_content_type, f.content_type) AS "contentType"
       FROM settlements s JOIN stored_files f ON f.id = s.invoice_file_id
      WHERE s.id = $1`,
    [settlementId],
  );
  return rows[0] ?? null;
}

/**
 * The stored file to send for a settlement's invoice, named and typed as the settlement says;
 * SETTLEMENT_NOT_FOUND or INVOICE_NOT_FOUND otherwise.
 */
export async function requireInvoiceFile(db: Queryable, settlementId: string): Promise<StoredFile> {
  const invoice = await invoiceOf(db, settlementId);
  const file = invoice && (await findStoredFile(db, invoice.fileId));
  if (invoice && file) return { ...file, originalName: invoice.fileName, contentType: invoice.contentType };
  const { rows } = await db.query('SELECT 1 FROM settlements WHERE id = $1', [settlementId]);
  throw refuse(rows.length > 0 ? 'INVOICE_NOT_FOUND' : 'SETTLEMENT_NOT_FOUND');
}

// What a doctor's invoice may be (issue 11): PDF, JPEG or PNG, known by its first bytes. The name and
// the Content-Type a browser sends are the uploader's claims; the magic bytes are the file's own.

import { FILE_SIGNATURE_BYTES, sniffFileType } from './file-type';

export const INVOICE_TYPES = ['application/pdf', 'image/jpeg', 'image/png'] as const;
export type InvoiceType = (typeof INVOICE_TYPES)[number];

/** How many first bytes sniffInvoiceType needs. */
export const INVOICE_SIGNATURE_BYTES = FILE_SIGNATURE_BYTES;

const isInvoiceType = (type: string | null): type is InvoiceType =>
  (INVOICE_TYPES as readonly (string | null)[]).includes(type);

/** The invoice type the bytes really are (domain/file-type.ts), or null when they are none of the accepted ones. */
export function sniffInvoiceType(bytes: Uint8Array): InvoiceType | null {
  const type = sniffFileType(bytes);
  return isInvoiceType(type) ? type : null;
}

const EXTENSION: Record<InvoiceType, string> = {
  'application/pdf': '.pdf',
  'image/jpeg': '.jpg',
  'image/png': '.png',
};
const KNOWN_EXTENSION = /\.(pdf|jpe?g|png)$/i;

/**
 * The name the invoice is downloaded under: the uploader's name with the extension of what the file
 * really is, so a PDF uploaded as `x.png` opens as a PDF. Path parts and control characters are dropped.
 */
export function invoiceFileName(uploadedName: string, type: InvoiceType): string {
  const base = (uploadedName.split(/[\\/]/).pop() ?? '')
    .replace(/\p{Cc}/gu, '')
    .trim()
    .replace(KNOWN_EXTENSION, '');
  const wanted = EXTENSION[type];
  return `${base === '' ? 'invoice' : base}${wanted}`;
}

// What a doctor's invoice may be (issue 11): PDF, JPEG or PNG, known by its first bytes. The name and
// the Content-Type a browser sends are the uploader's claims; the magic bytes are the file's own.

export const INVOICE_TYPES = ['application/pdf', 'image/jpeg', 'image/png'] as const;
export type InvoiceType = (typeof INVOICE_TYPES)[number];

const SIGNATURES: ReadonlyArray<readonly [InvoiceType, readonly number[]]> = [
  // "%PDF-": readers tolerate junk before it, we do not: an invoice file starts with its header.
  ['application/pdf', [0x25, 0x50, 0x44, 0x46, 0x2d]],
  // SOI marker followed by the first segment's marker prefix.
  ['image/jpeg', [0xff, 0xd8, 0xff]],
  ['image/png', [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]],
];

/** How many first bytes sniffInvoiceType needs: the longest signature. */
export const INVOICE_SIGNATURE_BYTES = Math.max(...SIGNATURES.map(([, signature]) => signature.length));

/** The invoice type the bytes really are, or null when they are none of the accepted ones. */
export function sniffInvoiceType(bytes: Uint8Array): InvoiceType | null {
  for (const [type, signature] of SIGNATURES)
    if (bytes.length >= signature.length && signature.every((byte, index) => bytes[index] === byte))
      return type;
  return null;
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

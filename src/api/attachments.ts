/**
 * Stored files (college cards, avatars). GETs accept the session cookie (decision of the server
 * helper), so a plain link downloads and an <img> previews without fetching the bytes by hand.
 */
export const attachmentUrl = (id: string) =>
  `${(import.meta.env.VITE_API_BASE_URL ?? '').replace(/\/+$/, '')}/v2/admin/attachments/${encodeURIComponent(id)}/download`;

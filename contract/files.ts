import { z } from 'zod';
import { FILE_PURPOSES } from '../domain/file-type';

/** An uploaded file's name as it will be shown and offered for download again. */
export const uploadFileNameSchema = z
  .string()
  .trim()
  .min(1)
  .max(255)
  .refine((name) => !/[\p{Cc}/\\]/u.test(name), 'no control characters or slashes');

/**
 * `POST /v2/admin/files?name=…&purpose=…`: the body is the file itself. Its type is sniffed from its
 * bytes and must be one the purpose allows (`attachment`, the default: PDF and images; `voice`: audio).
 */
export const fileUploadQuerySchema = z.object({
  name: uploadFileNameSchema,
  purpose: z.enum(FILE_PURPOSES).default('attachment'),
});

export const storedFileSchema = z.object({
  id: z.uuid(),
  originalName: z.string(),
  contentType: z.string(),
  sizeBytes: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
export type StoredFileBody = z.infer<typeof storedFileSchema>;

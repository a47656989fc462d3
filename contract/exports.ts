import { z } from 'zod';
import { isSaneTimestamp } from './bounds';
import { blankToUndefined, pageSchema } from './common';
import { EXPORT_DATE_FIELDS, EXPORT_FORMATS, EXPORT_STATUSES, EXPORT_TYPES, LOCALE_IDS } from './statuses';

/** A calendar day (`YYYY-MM-DD`, read in Europe/Lisbon) within the years the API accepts. */
const exportDay = () => z.iso.date().refine(isSaneTimestamp, { message: 'years 1900–2100' });

/**
 * What every export request carries. The type is free text here and checked by the service, so an
 * unknown type answers its own translated code (EXPORT_TYPE_UNKNOWN), not a generic validation error.
 * End before start and a range over EXPORT_MAX_RANGE_DAYS are refused by the service too, each with
 * its code; a missing start date is `required` ('This is required').
 */
const exportRequestFields = {
  // '' is "not given": one `required` error ('This is required'), not a format error beside it.
  startDate: z.preprocess(blankToUndefined, exportDay()),
  endDate: z.preprocess(
    (value) => (value === '' || value === null ? undefined : value),
    exportDay().optional(),
  ),
  format: z.enum(EXPORT_FORMATS),
  /** The language of the headers (and of CSV's separator, decimal mark and yes/no words). */
  locale: z.enum(LOCALE_IDS).default('pt-PT'),
};

/** `POST /v2/admin/users/export`: users, customers or professionals by created or last-active date. */
export const userExportRequestSchema = z.object({
  type: z.string().max(40).describe(`one of USERS, CUSTOMERS, PROFESSIONALS`),
  dateField: z.enum(EXPORT_DATE_FIELDS).default('CREATED'),
  ...exportRequestFields,
});

/** `POST /v2/admin/cases/export` and `POST /v2/admin/share-link-occurrences` (the statistics). */
export const datedExportRequestSchema = z.object(exportRequestFields);

export const exportJobSchema = z.object({
  id: z.guid(),
  type: z.enum(EXPORT_TYPES),
  format: z.enum(EXPORT_FORMATS),
  locale: z.enum(LOCALE_IDS),
  filters: z.object({
    dateField: z.enum(EXPORT_DATE_FIELDS),
    startDate: z.iso.date(),
    endDate: z.iso.date().nullable(),
  }),
  status: z.enum(EXPORT_STATUSES),
  rowsWritten: z.number().int(),
  estimatedTotal: z.number().int(),
  totalEstimated: z.boolean(),
  fileName: z.string().nullable(),
  sizeBytes: z.number().int().nullable(),
  /** Why it failed: a code the console translates under `exports.failure.` (e.g. INSTANCE_STOPPED). */
  errorReason: z.string().nullable(),
  createdAt: z.iso.datetime(),
  startedAt: z.iso.datetime().nullable(),
  finishedAt: z.iso.datetime().nullable(),
  expiresAt: z.iso.datetime(),
});

export const exportJobPageSchema = pageSchema(exportJobSchema);

/** "Your exports": newest first, keyset pages, optionally one type and one status (the failed ones: decision 0143). */
export const exportJobListQuerySchema = z.object({
  type: z.enum(EXPORT_TYPES).optional(),
  status: z.enum(EXPORT_STATUSES).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().max(500).optional(),
});

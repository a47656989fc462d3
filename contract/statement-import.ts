import { z } from 'zod';
import { CSV_FIELDS, type CsvField } from '../domain/statements/types';
import { INT4_MAX } from './bounds';
import { errorBodySchema } from './common';
import { uploadFileNameSchema } from './files';

/**
 * Importing a bank statement (issue 12): the console parses and previews the file, asks which of its
 * lines were imported before (`known-lines`), then sends the original bytes with the mapping it used and
 * what it saw; the server parses them again, refuses if it sees something else, and imports in one
 * transaction as a job the console follows. Paths under `/v2/admin/statements/`.
 */

export const STATEMENT_IMPORT_STATUSES = ['RUNNING', 'DONE', 'FAILED'] as const;
export const STATEMENT_IMPORT_PHASES = ['waiting', 'importing', 'matching', 'done'] as const;

/** A line key is the hex SHA-256 of `statementLineKey` (domain/statements/line-key.ts). */
const lineKey = z.string().regex(/^[0-9a-f]{64}$/, 'a line key');

/** The browser asks in chunks: 100,000 lines are twenty requests. */
export const KNOWN_LINES_MAX_KEYS = 5_000;

export const knownLinesBodySchema = z.object({
  keys: z.array(lineKey).min(1).max(KNOWN_LINES_MAX_KEYS),
});
export type KnownLinesBody = z.infer<typeof knownLinesBodySchema>;

export const knownLineSchema = z.object({
  key: lineKey,
  statementFileId: z.uuid(),
  /** The earlier file's name as it was uploaded. */
  fileName: z.string(),
  importedAt: z.iso.datetime({ offset: true }),
});
export type KnownLine = z.infer<typeof knownLineSchema>;

export const knownLinesSchema = z.object({ known: z.array(knownLineSchema) });
export type KnownLines = z.infer<typeof knownLinesSchema>;

const column = z.union([z.string().min(1).max(200), z.number().int().min(0).max(999)]);

/** `CsvMapping` of domain/statements/types.ts as it travels: header names or 0-based column indexes. */
export const csvMappingSchema = z
  .object({
    ...(Object.fromEntries(CSV_FIELDS.map((field) => [field, column])) as Record<CsvField, typeof column>),
    headerLine: z.number().int().min(0).max(1_000),
    delimiter: z.enum([',', ';', '\t', '|']),
  })
  .partial()
  .strict();

/** The mapping arrives as JSON text in the query string (the body is the file). */
const mappingParam = z
  .string()
  .max(4_000)
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'not JSON' });
      return z.NEVER;
    }
  })
  .pipe(csvMappingSchema);

const integerParam = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

export const statementImportQuerySchema = z.object({
  fileName: uploadFileNameSchema,
  mapping: mappingParam.optional(),
  /** What the preview saw: every parsed line, already imported or not, and their signed sum. */
  expectedLines: integerParam(1, INT4_MAX),
  expectedTotalCents: integerParam(-Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER),
});
export type StatementImportQuery = z.infer<typeof statementImportQuerySchema>;

export const statementImportResultSchema = z.object({
  statementFileId: z.uuid(),
  newLines: z.number().int(),
  duplicatesSkipped: z.number().int(),
  matched: z.number().int(),
  suggested: z.number().int(),
  unmatched: z.number().int(),
});
export type StatementImportResult = z.infer<typeof statementImportResultSchema>;

export const statementImportJobSchema = z.object({
  id: z.uuid(),
  fileName: z.string(),
  status: z.enum(STATEMENT_IMPORT_STATUSES),
  /** `waiting`: another import holds the statements; they are imported one at a time. */
  phase: z.enum(STATEMENT_IMPORT_PHASES),
  done: z.number().int(),
  total: z.number().int(),
  result: statementImportResultSchema.nullable(),
  /** Why a FAILED job failed, translated by the console like any error code. */
  errorCode: z.string().nullable(),
  createdAt: z.iso.datetime({ offset: true }),
});
export type StatementImportJob = z.infer<typeof statementImportJobSchema>;

export const statementImportAcceptedSchema = z.object({ job: statementImportJobSchema });

/**
 * An upload refused from its bytes, before any job exists (issue 27, decision 0122), names what was
 * found so the screen can say where: `STATEMENT_NOT_A_STATEMENT` the container the bytes are,
 * `STATEMENT_CONTROL_CHARACTERS` the line of the first one, `STATEMENT_CURRENCY_UNSUPPORTED` the currency.
 */
export const statementUploadRefusalSchema = errorBodySchema.extend({
  container: z.string().optional(),
  line: z.number().int().positive().optional(),
  currency: z.string().optional(),
});

import { z } from 'zod';
import { PROVIDER_CSV_FIELDS, type ProviderCsvField } from '../domain/sources/provider-csv';
import { SOURCE_ID_MAX, SOURCE_KINDS } from '../domain/sources/source-ids';
import { INT4_MAX } from './bounds';
import { blankToUndefined, errorBodySchema, optionalFilter, pageSchema } from './common';
import { uploadFileNameSchema } from './files';

/**
 * Importing the payment provider's payouts and the invoicing program's invoices (issue 31, decision 0152),
 * as statements are imported (contract/statement-import.ts): the console reads and previews the file, asks
 * which of its rows were imported before (`known`), then sends the original bytes with what it saw; the
 * server reads them again, refuses if it sees something else, and imports in one transaction as a job the
 * console follows. Paths under `/v2/admin/sources/`.
 */

export type { SourceKind } from '../domain/sources/source-ids';
export { SOURCE_KINDS };

export const SOURCE_IMPORT_STATUSES = ['RUNNING', 'DONE', 'FAILED'] as const;
/**
 * `checking`: a SAF-T over 32 MiB of XML against the official XSD, before anything is written (decision 0163;
 * `done` counts its invoices checked; answered by the instance running it, stored as `waiting`);
 * `waiting`: another source import holds the instance's reader; `linking`: rows → settlements, notes → invoices.
 */
export const SOURCE_IMPORT_PHASES = ['checking', 'waiting', 'importing', 'linking', 'done'] as const;

/** The browser asks in chunks: 100,000 rows are twenty requests. */
export const KNOWN_SOURCE_IDS_MAX = 5_000;
export const SOURCE_FILES_PAGE = { default: 50, max: 200 } as const;

/**
 * A row's id in its own source, built by `domain/sources/source-ids.ts` on both sides: Stripe
 * `payoutId/balanceTransactionId`, a collector `payoutId/reference|gross|fee|net[#rank]`, SAF-T
 * `InvoiceNo|ATCUD`.
 */
const sourceId = z
  .string()
  .min(1)
  .max(SOURCE_ID_MAX)
  .refine((text) => !/\p{Cc}/u.test(text), 'control character');

/** `POST /v2/admin/sources/known`: which of these rows of a file of `kind` were imported before. */
export const knownSourceRowsBodySchema = z.object({
  kind: z.enum(SOURCE_KINDS),
  ids: z.array(sourceId).min(1).max(KNOWN_SOURCE_IDS_MAX),
});
export type KnownSourceRowsBody = z.infer<typeof knownSourceRowsBodySchema>;

export const knownSourceRowSchema = z.object({
  id: z.string(),
  /** The file it was imported from, its name as uploaded, and when. */
  sourceFileId: z.uuid(),
  fileName: z.string(),
  importedAt: z.iso.datetime({ offset: true }),
});
export type KnownSourceRow = z.infer<typeof knownSourceRowSchema>;
export const knownSourceRowsSchema = z.object({ known: z.array(knownSourceRowSchema) });
export type KnownSourceRows = z.infer<typeof knownSourceRowsSchema>;

const column = z.union([z.string().min(1).max(200), z.number().int().min(0).max(999)]);

/** A collector report's column mapping (`ProviderCsvMapping`, domain/sources/provider-csv.ts) as it travels. */
export const providerCsvMappingSchema = z
  .object({
    ...(Object.fromEntries(PROVIDER_CSV_FIELDS.map((field) => [field, column])) as Record<
      ProviderCsvField,
      typeof column
    >),
    /** 1-based line of the header; 0: none (columns by index). */
    headerLine: z.number().int().min(0).max(1_000),
    delimiter: z.enum([',', ';', '\t', '|']),
  })
  .partial()
  .strict();
export type ProviderCsvMappingBody = z.infer<typeof providerCsvMappingSchema>;

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
  .pipe(providerCsvMappingSchema);

const integerParam = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

/**
 * `POST /v2/admin/sources/imports?…` — the raw body is the file (≤ 40 MB; gzip or a ZIP of one XML file
 * only for `SAFT_INVOICES`); optional `Idempotency-Key`. `mapping` is required for `COLLECTOR_PAYOUTS`
 * (`SOURCE_MAPPING_REQUIRED`) and refused for the others. `expectedRows`/`expectedTotalCents`: what the
 * preview counted with `sourceEntries` (domain/sources/source-ids.ts) — every row, imported before or not.
 */
export const sourceImportQuerySchema = z.object({
  kind: z.enum(SOURCE_KINDS),
  fileName: uploadFileNameSchema,
  expectedRows: integerParam(1, INT4_MAX),
  expectedTotalCents: integerParam(-Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER),
  mapping: mappingParam.optional(),
});
export type SourceImportQuery = z.infer<typeof sourceImportQuerySchema>;

/** Counts of a finished import; null where the count is not the kind's (payouts of SAF-T, documents of Stripe). */
export const sourceImportResultSchema = z.object({
  sourceFileId: z.uuid(),
  /** Rows (balance transactions, collector rows, documents) inserted. */
  newRows: z.number().int(),
  /** Rows of the file imported before, by their source id. */
  duplicatesSkipped: z.number().int(),
  /** Payouts new or added to (payout kinds). */
  payouts: z.number().int().nullable(),
  /** Invoices (FT/FR/FS/ND…) and credit notes (NC) inserted (SAF-T). */
  documents: z.number().int().nullable(),
  creditNotes: z.number().int().nullable(),
  /** Cancelled documents (status A) read and not stored (SAF-T). */
  cancelled: z.number().int().nullable(),
  /** New rows / documents linked to a settlement (a credit note: to its invoice), and those left unlinked. */
  linked: z.number().int(),
  unlinked: z.number().int(),
});
export type SourceImportResult = z.infer<typeof sourceImportResultSchema>;

export const sourceImportJobSchema = z.object({
  id: z.uuid(),
  kind: z.enum(SOURCE_KINDS),
  fileName: z.string(),
  status: z.enum(SOURCE_IMPORT_STATUSES),
  phase: z.enum(SOURCE_IMPORT_PHASES),
  done: z.number().int(),
  total: z.number().int(),
  result: sourceImportResultSchema.nullable(),
  /**
   * Why a FAILED job failed, translated like any code: a refusal found under the import lock
   * (`SOURCE_NOTHING_NEW`, …), else the statement imports' `STATEMENT_IMPORT_FAILED` and
   * `STATEMENT_IMPORT_INTERRUPTED`, whose words say nothing of statements.
   */
  errorCode: z.string().nullable(),
  /**
   * `SAFT_SCHEMA_INVALID` found by the job (a SAF-T over 32 MiB of XML, decision 0163): the XSD's first
   * complaints, each `line N: message`; answered by the instance that ran it.
   */
  schemaErrors: z.array(z.string()).optional(),
  createdAt: z.iso.datetime({ offset: true }),
});
export type SourceImportJob = z.infer<typeof sourceImportJobSchema>;
export const sourceImportAcceptedSchema = z.object({ job: sourceImportJobSchema });

/** `GET /v2/admin/sources/files?kind=&limit=&cursor=`: imported files, newest first. */
export const sourceFileListQuerySchema = z.object({
  kind: optionalFilter(z.enum(SOURCE_KINDS)),
  limit: z.preprocess(
    blankToUndefined,
    z.coerce.number().int().min(1).max(SOURCE_FILES_PAGE.max).default(SOURCE_FILES_PAGE.default),
  ),
  cursor: optionalFilter(z.string().max(2000)),
});

export const sourceFileRowSchema = z.object({
  id: z.uuid(),
  kind: z.enum(SOURCE_KINDS),
  fileName: z.string(),
  importedAt: z.iso.datetime({ offset: true }),
  /** The admin who imported it (null: that user is gone). */
  importedBy: z.string().nullable(),
  /** Rows the file held, those inserted, those imported before. */
  rows: z.number().int(),
  newRows: z.number().int(),
  duplicatesSkipped: z.number().int(),
  /** The file's total as `sourceEntries` counts it, cents. */
  totalCents: z.number().int(),
  /**
   * Whether the file's own control totals were checked against its rows: SAF-T `NumberOfEntries`,
   * `TotalDebit`, `TotalCredit` (always); Stripe, every payout's stated amount (its `payout` row); a
   * collector CSV states none.
   */
  controlTotals: z.enum(['checked', 'not']),
});
export type SourceFileRow = z.infer<typeof sourceFileRowSchema>;
export const sourceFilePageSchema = pageSchema(sourceFileRowSchema);
export type SourceFilePage = z.infer<typeof sourceFilePageSchema>;

/**
 * A refused source import's body: the code and the facts the screen shows beside its words. The reader's
 * refusals (`SAFT_*`, `STRIPE_*`, `PROVIDER_CSV_*`, domain/sources/refusal.ts) give `line` and their facts
 * — `STRIPE_PAYOUT_SUM_MISMATCH` `payoutId`, `payoutCents`, `rowsNetCents`; `SAFT_CONTROL_TOTALS_MISMATCH`
 * `mismatches` (each control total declared and computed); `STRIPE_REPORT_COLUMNS_MISSING` and
 * `PROVIDER_CSV_MAPPING_INVALID` `missing`/`notInHeader`; a row's `column` and `reason`. `SOURCE_NOT_THIS_KIND`
 * (415) names the `container` the bytes are (`gzip`, `zip`, `pdf`, …; a compressed file only for SAF-T) and
 * the `kind` asked for; `SOURCE_PREVIEW_MISMATCH` both counts and totals.
 */
export const sourceImportRefusalSchema = errorBodySchema.extend({
  line: z.number().int().positive().optional(),
  kind: z.enum(SOURCE_KINDS).optional(),
  container: z.string().optional(),
  payoutId: z.string().optional(),
  payoutCents: z.number().int().optional(),
  rowsNetCents: z.number().int().optional(),
  mismatches: z.array(z.object({ total: z.string(), declared: z.string(), computed: z.string() })).optional(),
  missing: z.array(z.string()).optional(),
  notInHeader: z.array(z.string()).optional(),
  column: z.string().optional(),
  reason: z.string().optional(),
  /** `SAFT_SCHEMA_INVALID`: the XSD's first complaints, each `line N: message`. */
  schemaErrors: z.array(z.string()).optional(),
  expectedRows: z.number().int().optional(),
  foundRows: z.number().int().optional(),
  expectedTotalCents: z.number().int().optional(),
  foundTotalCents: z.number().int().optional(),
});
export type SourceImportRefusal = z.infer<typeof sourceImportRefusalSchema>;

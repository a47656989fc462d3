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
export const STATEMENT_MISMATCH_NOTE_MAX = 500;

/** An account as a statement names it: an IBAN, else the bank's account identification (MT940 `:25:`). */
export const statementAccountSchema = z
  .string()
  .trim()
  .min(1)
  .max(70)
  .refine((text) => !/\p{Cc}/u.test(text), 'control character');

const bankIdentity = z
  .string()
  .max(200)
  .refine((text) => !/\p{Cc}/u.test(text), 'control character')
  .nullable();

/**
 * One statement's question (docs/decisions/0121): which of its lines were imported before. The statement
 * as the preview read it — its account (the file's, else the one the admin picked), period, and the
 * bank's statement id and sequence — and its line keys (`statementLineKeys`, recipe v2). The balances are
 * optional but the console sends them when the statement states them: with different sequence numbers,
 * a statement whose opening balance is another's closing one continues it and shares no line with it.
 */
export const knownLinesBodySchema = z
  .object({
    accountIban: statementAccountSchema,
    periodStart: z.iso.date(),
    periodEnd: z.iso.date(),
    statementId: bankIdentity,
    sequence: bankIdentity,
    openingBalanceCents: z
      .number()
      .int()
      .min(-Number.MAX_SAFE_INTEGER)
      .max(Number.MAX_SAFE_INTEGER)
      .nullable()
      .optional(),
    closingBalanceCents: z
      .number()
      .int()
      .min(-Number.MAX_SAFE_INTEGER)
      .max(Number.MAX_SAFE_INTEGER)
      .nullable()
      .optional(),
    keys: z.array(lineKey).min(1).max(KNOWN_LINES_MAX_KEYS),
  })
  .refine((body) => body.periodStart <= body.periodEnd, {
    message: 'period ends before it starts',
    path: ['periodEnd'],
  });
export type KnownLinesBody = z.infer<typeof knownLinesBodySchema>;

export const KNOWN_LINE_REASONS = ['BANK_REFERENCE', 'SAME_STATEMENT', 'SAME_CONTENT'] as const;

export const knownLineSchema = z.object({
  key: lineKey,
  statementFileId: z.uuid(),
  /** The earlier file's name as it was uploaded. */
  fileName: z.string(),
  importedAt: z.iso.datetime({ offset: true }),
  /**
   * The rule that recognised it: the bank's own reference within the account; the same statement (account,
   * statement id, sequence, period) imported before; the same content in an overlapping statement.
   */
  reason: z.enum(KNOWN_LINE_REASONS),
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
  /**
   * The account of a statement whose file names none (a CSV): an IBAN, checked (mod-97) by the import —
   * `STATEMENT_ACCOUNT_INVALID`; without it such a file is refused, `STATEMENT_ACCOUNT_REQUIRED`.
   */
  accountIban: z.string().max(70).optional(),
  /**
   * Imports a statement whose balances do not add up (`STATEMENT_BALANCE_MISMATCH` without it): the
   * admin's reason, kept on the statement and in the import's audit row.
   */
  mismatchNote: z
    .string()
    .trim()
    .min(1)
    .max(STATEMENT_MISMATCH_NOTE_MAX)
    .refine((text) => !/\p{Cc}/u.test(text), 'control character')
    .optional(),
});
export type StatementImportQuery = z.infer<typeof statementImportQuerySchema>;

export const statementImportResultSchema = z.object({
  statementFileId: z.uuid(),
  newLines: z.number().int(),
  duplicatesSkipped: z.number().int(),
  /** Statements in the file (one per account and period). */
  statements: z.number().int(),
  /** Pending entries read but not imported. */
  skipped: z.number().int(),
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
 * Why an import is refused for a balance mismatch (`STATEMENT_BALANCE_MISMATCH`): each statement whose
 * balances do not add up, with what the file says. `index` is its position in the file.
 */
export const statementMismatchSchema = z.object({
  index: z.number().int(),
  accountIban: z.string(),
  periodStart: z.iso.date(),
  periodEnd: z.iso.date(),
  openingBalanceCents: z.number().int(),
  closingBalanceCents: z.number().int(),
  entriesSumCents: z.number().int(),
  /** closing − (opening + entries): what is missing from the entries. */
  differenceCents: z.number().int(),
});
export type StatementMismatch = z.infer<typeof statementMismatchSchema>;

/**
 * A refused import's body. `STATEMENT_BALANCE_MISMATCH` lists the statements whose balances do not add up;
 * an upload refused from its bytes, before any job exists (decision 0122), names what was found so the screen
 * can say where: `STATEMENT_NOT_A_STATEMENT` the container the bytes are, `STATEMENT_CONTROL_CHARACTERS` the
 * line of the first one, `STATEMENT_CURRENCY_UNSUPPORTED` the currency.
 */
export const statementImportRefusalSchema = errorBodySchema.extend({
  statements: z.array(statementMismatchSchema).optional(),
  container: z.string().optional(),
  line: z.number().int().positive().optional(),
  currency: z.string().optional(),
});

/** `GET /v2/admin/statements/accounts`: the accounts statements were imported for (the preview's picker). */
export const statementAccountRowSchema = z.object({
  accountIban: z.string(),
  currency: z.string().nullable(),
  statementCount: z.number().int(),
  /** The latest statement's period end and closing balance (null: it stated none). */
  lastPeriodEnd: z.iso.date(),
  lastClosingBalanceCents: z.number().int().nullable(),
});
export type StatementAccountRow = z.infer<typeof statementAccountRowSchema>;
export const statementAccountsSchema = z.object({ items: z.array(statementAccountRowSchema) });
export type StatementAccounts = z.infer<typeof statementAccountsSchema>;

import { z } from 'zod';
import { SEPA_STATUSES } from '../domain/sepa-status';
import { MAX_YEAR, MIN_YEAR } from './bounds';
import { blankToUndefined, optionalFilter, pageSchema, repeatable, sortOrderSchema } from './common';
import { referenceMonthSchema, settlementStatusSchema } from './finance';
import {
  SEPA_EXCLUSION_REASONS,
  SEPA_FILE_SORTS,
  SEPA_REPORT_OUTCOMES,
  SEPA_TRANSFER_STATUSES,
} from './sepa-statuses';
import { CURRENCIES, MISSING_PROFESSIONAL_FIELDS } from './statuses';

/**
 * The SEPA half of the Financial Manager (issue 11): settlements to process, generating a
 * pain.001.001.03 file, the SEPA history, the bank's answer (pain.002) and a doctor's payouts.
 * Paths under `/v2/admin/settlement/sepa/` and `/v2/admin/professionals/{id}/payouts`.
 */

export const sepaStatusSchema = z.enum(SEPA_STATUSES);
const currency = z.enum(CURRENCIES);
const cents = z.number().int();
const isoDay = z.iso.date();

/** A business date the admin picks (`YYYY-MM-DD`), within the years every date of the API is held to. */
export const businessDaySchema = isoDay.refine((day) => {
  const year = Number(day.slice(0, 4));
  return year >= MIN_YEAR && year <= MAX_YEAR;
}, 'year out of range');

// ---------------------------------------------------------------------------------------------------
// Payout blocks (a pain.002 rejected a transfer; lifted when the doctor's IBAN changes)

export const payoutBlockSchema = z.object({
  id: z.uuid(),
  /** ISO external status reason code (`bankReasons.<CODE>`), or the bank's proprietary code. */
  reasonCode: z.string().nullable(),
  /** The bank's additional information, as it came. */
  reasonText: z.string().nullable(),
  /** The IBAN the bank rejected; the block holds while the doctor's IBAN is still this one. */
  blockedIban: z.string(),
  sepaFileId: z.uuid().nullable(),
  msgId: z.string().nullable(),
  endToEndId: z.string().nullable(),
  blockedAt: z.iso.datetime(),
});

/** What made a doctor's block: the bank's status report rejecting a transfer, or a return on a statement. */
export const PAYOUT_BLOCK_SOURCES = ['STATUS_REPORT', 'RETURN'] as const;

/**
 * One row of `GET /v2/admin/professionals/payout-blocked`: a doctor whose payouts are blocked now, with
 * the newest block that holds (decision 0143).
 */
export const blockedDoctorSchema = z.object({
  professionalId: z.uuid(),
  name: z.string(),
  email: z.string(),
  blockedBy: z.enum(PAYOUT_BLOCK_SOURCES),
  block: payoutBlockSchema,
});

/** Every blocked doctor in one page (no cursor): the home card "doctors whose payouts are blocked" is its total. */
export const blockedDoctorPageSchema = pageSchema(blockedDoctorSchema);

// ---------------------------------------------------------------------------------------------------
// Settlements to process (SETTLED, not in a live file), per doctor for one reference month

/** "SEPA to process" a page at a time: 10,000 doctors in a month answered whole cost a core (decision 0145). */
export const SEPA_TO_PROCESS_PAGE_SIZE = { default: 50, max: 200 } as const;

export const sepaToProcessQuerySchema = z.object({
  referenceMonth: referenceMonthSchema,
  limit: z.preprocess(
    blankToUndefined,
    z.coerce
      .number()
      .int()
      .min(1)
      .max(SEPA_TO_PROCESS_PAGE_SIZE.max)
      .default(SEPA_TO_PROCESS_PAGE_SIZE.default),
  ),
  cursor: optionalFilter(z.string().max(2000)),
});

export const sepaDoctorToProcessSchema = z.object({
  professionalId: z.uuid(),
  professionalName: z.string(),
  fullName: z.string().nullable(),
  referenceMonth: z.string(),
  settlementCount: z.number().int(),
  /** Σ payable (coalesce(adjusted, net)) of the doctor's SETTLED settlements of the month. */
  owedCents: cents,
  /** Refunds after payout (REFUNDED_PAID) not yet deducted from a transfer, any month. */
  recoveryCents: cents,
  /** owedCents − recoveryCents when the doctor can be paid, else 0. Never negative. */
  transferCents: cents,
  currency,
  selectable: z.boolean(),
  /** Why the doctor is not selectable; null when selectable. The first reason that applies. */
  excludedBecause: z.enum(SEPA_EXCLUSION_REASONS).nullable(),
  missingFields: z.array(z.enum(MISSING_PROFESSIONAL_FIELDS)),
  payoutBlock: payoutBlockSchema.nullable(),
});

/**
 * One page of the month's doctors with settlements waiting for a file, by name (keyset: pass
 * `nextCursor` back as `cursor` with the same month). `total` is the month's doctors; `totals` and
 * `months` cover the whole month and every month on every page, read from the kept per-doctor-month
 * totals (exact). What a file of every payable doctor would pay is the dry run's answer (no
 * `professionalIds`): who can be paid depends on each doctor's data, checked per doctor (decision 0145).
 */
export const sepaToProcessSchema = pageSchema(sepaDoctorToProcessSchema).extend({
  referenceMonth: z.string(),
  totals: z.object({
    doctorCount: z.number().int(),
    settlementCount: z.number().int(),
    /** Σ owed of every doctor of the month, payable or not. */
    owedCents: cents,
    currency,
  }),
  /** Every month that has SETTLED settlements waiting for a file, newest first (the month picker). */
  months: z.array(
    z.object({
      referenceMonth: z.string(),
      doctorCount: z.number().int(),
      settlementCount: z.number().int(),
    }),
  ),
});

// ---------------------------------------------------------------------------------------------------
// Generating a file: dry run, then confirm with an `Idempotency-Key` header

export const SEPA_MAX_DOCTORS_PER_FILE = 20_000;

export const sepaGenerateBodySchema = z
  .strictObject({
    referenceMonth: referenceMonthSchema,
    /** The doctors to pay; omitted: every selectable doctor of the month. */
    professionalIds: z.array(z.uuid()).min(1).max(SEPA_MAX_DOCTORS_PER_FILE).optional(),
    /** Requested execution date; omitted: the next TARGET2 business day (Europe/Lisbon). */
    executionDate: businessDaySchema.optional(),
  })
  .superRefine((body, context) => {
    if (body.professionalIds && new Set(body.professionalIds).size !== body.professionalIds.length)
      context.addIssue({ code: 'custom', path: ['professionalIds'], message: 'repeated id' });
  });

export const sepaExclusionSchema = z.object({
  professionalId: z.uuid(),
  professionalName: z.string(),
  /** The console names a doctor by it first; the list's page may not hold every excluded doctor. */
  fullName: z.string().nullable(),
  reason: z.enum(SEPA_EXCLUSION_REASONS),
  missingFields: z.array(z.enum(MISSING_PROFESSIONAL_FIELDS)),
  payoutBlock: payoutBlockSchema.nullable(),
  owedCents: cents,
  recoveryCents: cents,
});

export const sepaDryRunSchema = z.object({
  referenceMonth: z.string(),
  /** The TARGET2 business day the file will ask for (the requested one moved forward if needed). */
  executionDate: isoDay,
  transferCount: z.number().int(),
  settlementCount: z.number().int(),
  /** Σ settlements in the transfers. */
  settledCents: cents,
  /** Σ recoveries deducted from them. */
  recoveredCents: cents,
  /** settledCents − recoveredCents: the file's CtrlSum. */
  totalCents: cents,
  currency,
  excluded: z.array(sepaExclusionSchema),
});

// ---------------------------------------------------------------------------------------------------
// SEPA history

export const SEPA_PAGE_SIZE = { default: 50, max: 200 } as const;

export const sepaFileListQuerySchema = z.object({
  status: repeatable(sepaStatusSchema),
  referenceMonth: optionalFilter(referenceMonthSchema),
  /** Jump to a file by its MsgId (exact). */
  msgId: optionalFilter(z.string().min(1).max(35)),
  sort: z.preprocess(blankToUndefined, z.enum(SEPA_FILE_SORTS).default('created')),
  order: z.preprocess(blankToUndefined, sortOrderSchema.default('desc')),
  limit: z.preprocess(
    blankToUndefined,
    z.coerce.number().int().min(1).max(SEPA_PAGE_SIZE.max).default(SEPA_PAGE_SIZE.default),
  ),
  cursor: optionalFilter(z.string().max(2000)),
});

export const sepaFileSchema = z.object({
  id: z.uuid(),
  msgId: z.string(),
  paymentInfoId: z.string(),
  status: sepaStatusSchema,
  referenceMonth: z.string(),
  executionDate: isoDay,
  /** The file's CtrlSum: Σ transfers. */
  amountCents: cents,
  transferCount: z.number().int(),
  rejectedTransferCount: z.number().int(),
  settlementCount: z.number().int(),
  currency,
  notes: z.string().nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  createdBy: z.object({ id: z.uuid(), name: z.string() }).nullable(),
  /** Downloads (XML and XLSX) exist only while GENERATED. */
  downloadable: z.boolean(),
});

export const sepaFilePageSchema = pageSchema(sepaFileSchema);

/** Why the bank rejected a transfer: an ISO reason code (or the bank's own) and its words. */
export const transferRejectionSchema = z.object({
  reasonCode: z.string().nullable(),
  reasonText: z.string().nullable(),
});

export const sepaTransferSettlementSchema = z.object({
  id: z.uuid(),
  caseId: z.uuid().nullable(),
  subscriptionPaymentId: z.uuid().nullable(),
  referenceMonth: z.string(),
  amountCents: cents,
  status: settlementStatusSchema,
});

export const sepaTransferSchema = z.object({
  id: z.uuid(),
  endToEndId: z.string(),
  professionalId: z.uuid(),
  professionalName: z.string(),
  creditorName: z.string(),
  creditorIban: z.string(),
  creditorBic: z.string().nullable(),
  /** What the transfer pays: settledCents − recoveredCents. */
  amountCents: cents,
  settledCents: cents,
  recoveredCents: cents,
  status: z.enum(SEPA_TRANSFER_STATUSES),
  rejection: transferRejectionSchema.nullable(),
  settlements: z.array(sepaTransferSettlementSchema),
  /** The REFUNDED_PAID settlements whose amount this transfer deducted. */
  recoveries: z.array(z.object({ settlementId: z.uuid(), amountCents: cents })),
});

export const sepaStatusReportSummarySchema = z.object({
  id: z.uuid(),
  messageId: z.string(),
  outcome: z.enum(SEPA_REPORT_OUTCOMES),
  /** The file's status once the report was applied (unchanged by a pending or undetermined one). */
  fileStatus: sepaStatusSchema,
  receivedAt: z.iso.datetime(),
});

/** A bank statement line reconciled with the file: its debit (or a transfer's), or a transfer's return. */
export const sepaStatementLineSchema = z.object({
  lineId: z.uuid(),
  statementFileId: z.uuid(),
  statementFileName: z.string(),
  bankDate: z.iso.date(),
  /** Signed as the bank booked it: a debit negative, a return positive. */
  amountCents: cents,
  /** PAYMENT: the line pays the file or one of its transfers; RETURN: it gives a transfer back. */
  role: z.enum(['PAYMENT', 'RETURN']),
  /** The transfer the line is linked to; null when it is the file's batch debit. */
  endToEndId: z.string().nullable(),
});

export const sepaFileDetailSchema = sepaFileSchema.extend({
  debtorName: z.string(),
  debtorIban: z.string(),
  debtorBic: z.string().nullable(),
  transfers: z.array(sepaTransferSchema),
  statusReports: z.array(sepaStatusReportSummarySchema),
  /** MATCHED lines of bank statements linked to the file or its transfers, by bank date. */
  statementLines: z.array(sepaStatementLineSchema),
});

/** What generating answers (and a retry with the same `Idempotency-Key` answers again). */
export const sepaGeneratedSchema = z.object({
  file: sepaFileSchema,
  excluded: z.array(sepaExclusionSchema),
});

export const sepaFileParamsSchema = z.object({ id: z.guid() });

// ---------------------------------------------------------------------------------------------------
// The bank's answer: a pain.002.001.03 upload (raw XML body, or multipart with one file)

export const SEPA_STATUS_REPORT_MAX_BYTES = 5 * 1024 * 1024;

export const sepaStatusReportResultSchema = z.object({
  reportMessageId: z.string(),
  sepaFileId: z.uuid(),
  msgId: z.string(),
  outcome: z.enum(SEPA_REPORT_OUTCOMES),
  /** false: nothing changed (the report was already applied, pending, or undetermined). */
  applied: z.boolean(),
  /** The same report (same bytes, or same report MsgId for this file) was uploaded before. */
  alreadyApplied: z.boolean(),
  fileStatusBefore: sepaStatusSchema,
  fileStatus: sepaStatusSchema,
  rejectedTransfers: z.array(
    z.object({
      endToEndId: z.string(),
      professionalId: z.uuid(),
      professionalName: z.string(),
      amountCents: cents,
      reasonCode: z.string().nullable(),
      reasonText: z.string().nullable(),
    }),
  ),
  /** Why a report was not applied (domain/sepa/status-report.ts notes), for an admin to look at. */
  notes: z.array(
    z.object({
      code: z.string(),
      paymentInformationId: z.string().optional(),
      endToEndId: z.string().optional(),
      status: z.string().optional(),
    }),
  ),
});

// ---------------------------------------------------------------------------------------------------
// A doctor's payouts (the doctor's page)

export const professionalPayoutsSchema = z.object({
  professionalId: z.uuid(),
  /** Per settlement status: how many and their payable amount. */
  settlements: z.array(
    z.object({ status: settlementStatusSchema, count: z.number().int(), payableCents: cents }),
  ),
  transfers: z.array(
    z.object({
      sepaFileId: z.uuid(),
      msgId: z.string(),
      fileStatus: sepaStatusSchema,
      referenceMonth: z.string(),
      executionDate: isoDay,
      endToEndId: z.string(),
      amountCents: cents,
      settlementCount: z.number().int(),
      status: z.enum(SEPA_TRANSFER_STATUSES),
      rejection: transferRejectionSchema.nullable(),
      createdAt: z.iso.datetime(),
    }),
  ),
  payoutBlock: payoutBlockSchema.nullable(),
  /** Refunds after payout not yet deducted from a transfer. */
  recovery: z.object({
    amountCents: cents,
    settlements: z.array(z.object({ id: z.uuid(), caseId: z.uuid().nullable(), amountCents: cents })),
  }),
  currency,
});

import { z } from 'zod';
import { SETTLEMENT_STATUSES } from '../domain/settlement-status';
import { INT4_MAX, int4Query, MAX_YEAR, MIN_YEAR } from './bounds';
import {
  blankToUndefined,
  errorBodySchema,
  optionalFilter,
  pageSchema,
  repeatable,
  sortOrderSchema,
} from './common';
import { CASES_TO_PROCESS_SEARCH_MAX } from './limits';
import { CURRENCIES, LOCALE_IDS, MISSING_PROFESSIONAL_FIELDS, SETTLEMENT_SORTS } from './statuses';

export const settlementStatusSchema = z.enum(SETTLEMENT_STATUSES);

/** A reference month `YYYY-MM` (DESIGN §5), within the years every date of the API is held to. */
export const referenceMonthSchema = z
  .string()
  .regex(/^\d{4}-(0[1-9]|1[0-2])$/)
  .refine((month) => {
    const year = Number(month.slice(0, 4));
    return year >= MIN_YEAR && year <= MAX_YEAR;
  }, 'year out of range')
  .describe('`YYYY-MM`');

/** Settlement amounts are int4 columns; a filter beyond them could match nothing anyway. */
const cents = optionalFilter(int4Query().min(0));

export const SETTLEMENT_PAGE_SIZE = { default: 50, max: 200 } as const;

export const settlementListQuerySchema = z
  .object({
    status: repeatable(settlementStatusSchema),
    referenceMonth: optionalFilter(referenceMonthSchema),
    professionalId: optionalFilter(z.uuid()),
    caseId: optionalFilter(z.uuid().describe('the settlement of this case (at most one)')),
    payableMinCents: cents.describe('payable = coalesce(adjustedCents, netCents), inclusive'),
    payableMaxCents: cents.describe('payable = coalesce(adjustedCents, netCents), inclusive'),
    hasInvoice: optionalFilter(z.enum(['true', 'false']).transform((value) => value === 'true')),
    /**
     * Billed to the customer by an invoice of the invoicing program (`provider_invoices.settlement_id`);
     * false: paid and never invoiced (decision 0155). Not `hasInvoice`, the doctor's invoice to the platform.
     */
    customerInvoiced: optionalFilter(z.enum(['true', 'false']).transform((value) => value === 'true')),
    sort: z.preprocess(blankToUndefined, z.enum(SETTLEMENT_SORTS).default('created')),
    order: z.preprocess(blankToUndefined, sortOrderSchema.default('desc')),
    limit: z.preprocess(
      blankToUndefined,
      z.coerce.number().int().min(1).max(SETTLEMENT_PAGE_SIZE.max).default(SETTLEMENT_PAGE_SIZE.default),
    ),
    cursor: optionalFilter(z.string().max(2000)),
  })
  .superRefine((query, context) => {
    if (
      query.payableMinCents !== undefined &&
      query.payableMaxCents !== undefined &&
      query.payableMinCents > query.payableMaxCents
    )
      context.addIssue({ code: 'custom', path: ['payableMaxCents'], message: 'below payableMinCents' });
  });

const isoDay = z.iso.date();

export const settlementItemSchema = z.object({
  id: z.uuid(),
  professionalId: z.uuid(),
  professionalName: z.string(),
  caseId: z.uuid().nullable(),
  subscriptionPaymentId: z.uuid().nullable(),
  referenceMonth: z.string(),
  grossCents: z.number().int(),
  feeCents: z.number().int(),
  netCents: z.number().int(),
  adjustedCents: z.number().int().nullable(),
  adjustmentNote: z.string().nullable(),
  payableCents: z.number().int(),
  paymentDate: isoDay.nullable(),
  availableOn: isoDay.nullable(),
  hasInvoice: z.boolean(),
  notes: z.string().nullable(),
  status: settlementStatusSchema,
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  currency: z.enum(CURRENCIES),
});

export const settlementPageSchema = pageSchema(settlementItemSchema);

/** Doctors per page of "cases to process" (docs/decisions/0088): a screenful and some, never 10,000 at once. */
export const CASES_TO_PROCESS_PAGE_SIZE = { default: 50, max: 200 } as const;

export const professionalSettlementQuerySchema = z.object({
  referenceMonth: optionalFilter(referenceMonthSchema),
  /** One doctor only: the "settle a doctor" screen's header (their totals and missing fields). */
  professionalId: optionalFilter(z.uuid()),
  /** Part of the doctor's name or full name (the list's search box). */
  q: optionalFilter(z.string().trim().max(CASES_TO_PROCESS_SEARCH_MAX)),
  limit: z.preprocess(
    blankToUndefined,
    z.coerce
      .number()
      .int()
      .min(1)
      .max(CASES_TO_PROCESS_PAGE_SIZE.max)
      .default(CASES_TO_PROCESS_PAGE_SIZE.default),
  ),
  cursor: optionalFilter(z.string().max(2000)),
});

const totalsShape = {
  settlementCount: z.number().int(),
  caseCount: z.number().int(),
  grossCents: z.number().int(),
  feeCents: z.number().int(),
  netCents: z.number().int(),
  payableCents: z.number().int(),
};

/** One doctor's settlements waiting to be settled (READY_TO_SETTLE or AVAILABLE) in one reference month. */
export const professionalSettlementSchema = z.object({
  professionalId: z.uuid(),
  professionalName: z.string(),
  fullName: z.string().nullable(),
  referenceMonth: z.string(),
  ...totalsShape,
  currency: z.enum(CURRENCIES),
  missingFields: z.array(z.enum(MISSING_PROFESSIONAL_FIELDS)),
});

/**
 * One page of doctor-months, newest month first, then by the doctor's name (keyset: pass `nextCursor`
 * back as `cursor` with the same filters). `total` counts every doctor-month of the filters and
 * `totals` sums all of them, not only this page's.
 */
export const professionalSettlementsSchema = pageSchema(professionalSettlementSchema).extend({
  totals: z.object({ ...totalsShape, currency: z.enum(CURRENCIES) }),
});

// ── Settling and managing settlements (issue 11, docs/decisions/0066–0068) ──────────────────────────

/** What an admin may set a payout to: an int4 amount of cents, never negative (migration 0004). */
const adjustedCentsSchema = z.number().int().min(0).max(INT4_MAX);
/** A note an admin writes (adjustment reason, free notes): trimmed, never empty, bounded. */
const noteSchema = z.string().trim().min(1).max(2000);
/** How many settlements one request may name: far above a doctor's month, bounded for the lock list. */
export const MAX_SETTLEMENTS_PER_REQUEST = 1000;

const distinctIds = z
  .array(z.uuid())
  .min(1)
  .max(MAX_SETTLEMENTS_PER_REQUEST)
  .refine((ids) => new Set(ids).size === ids.length, 'repeated id');

/** One included settlement's payout set by the admin while settling; the note says why. */
export const settlementAdjustmentSchema = z.object({
  settlementId: z.uuid(),
  adjustedCents: adjustedCentsSchema,
  note: noteSchema,
});

/**
 * `POST /v2/admin/settlement/`: confirm the value of a doctor's month. `settlementIds` are the included
 * cases; `expectedCount` and `expectedTotalCents` are what the confirmation showed (Σ payable of the
 * included settlements after `adjustments`). `professionalId` may be missing on the wire so the refusal
 * is the specification's 'Select one Doctor ID' (`SELECT_ONE_DOCTOR`), not a bare validation error.
 */
export const settlementConfirmSchema = z
  .object({
    professionalId: z.uuid().nullish(),
    referenceMonth: referenceMonthSchema,
    settlementIds: distinctIds,
    adjustments: z.array(settlementAdjustmentSchema).max(MAX_SETTLEMENTS_PER_REQUEST).default([]),
    expectedCount: z.number().int().min(1).max(MAX_SETTLEMENTS_PER_REQUEST),
    expectedTotalCents: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  })
  .superRefine((body, context) => {
    if (body.expectedCount !== body.settlementIds.length)
      context.addIssue({
        code: 'custom',
        path: ['expectedCount'],
        message: 'not the number of settlementIds',
      });
    const included = new Set(body.settlementIds);
    const adjusted = new Set<string>();
    body.adjustments.forEach((adjustment, index) => {
      if (!included.has(adjustment.settlementId) || adjusted.has(adjustment.settlementId))
        context.addIssue({
          code: 'custom',
          path: ['adjustments', index, 'settlementId'],
          message: 'not an included settlement, or adjusted twice',
        });
      adjusted.add(adjustment.settlementId);
    });
  });

/** What a confirmation settled. */
export const settlementConfirmResultSchema = z.object({
  professionalId: z.uuid(),
  referenceMonth: z.string(),
  settledCount: z.number().int(),
  totalCents: z.number().int(),
  currency: z.enum(CURRENCIES),
  settlementIds: z.array(z.uuid()),
});

/**
 * The refusals of the settlement routes carry what the screen needs to react without another call:
 * the doctor's missing fields (`PROFESSIONAL_MISSING_DATA`), the ids concerned, and the doctor's month
 * as it stands now (`SETTLEMENT_TOTAL_CHANGED`, `SETTLEMENT_NOT_SETTLEABLE`) so the screen reloads it.
 */
export const settlementRefusalSchema = errorBodySchema.extend({
  missingFields: z.array(z.enum(MISSING_PROFESSIONAL_FIELDS)).optional(),
  settlementIds: z.array(z.uuid()).optional(),
  currentCount: z.number().int().optional(),
  currentTotalCents: z.number().int().optional(),
});

/**
 * `PATCH /v2/admin/settlement/{id}`: `adjustedCents` sets the payout (its `adjustmentNote` required) or
 * `null` clears it (and its note); `notes` sets or (null) clears the free notes. At least one field.
 */
export const settlementPatchSchema = z
  .object({
    adjustedCents: adjustedCentsSchema.nullable().optional(),
    adjustmentNote: noteSchema.optional(),
    notes: z.string().trim().max(2000).nullable().optional(),
  })
  .strict()
  .superRefine((body, context) => {
    if (body.adjustedCents === undefined && body.notes === undefined)
      context.addIssue({ code: 'custom', path: ['adjustedCents'], message: 'nothing to change' });
    if (typeof body.adjustedCents === 'number' && body.adjustmentNote === undefined)
      context.addIssue({ code: 'custom', path: ['adjustmentNote'], message: 'required with adjustedCents' });
    if (body.adjustedCents == null && body.adjustmentNote !== undefined)
      context.addIssue({ code: 'custom', path: ['adjustmentNote'], message: 'only with adjustedCents' });
  });

/** `POST /v2/admin/settlement/{id}/refund`: the customer was refunded; why, optionally. */
export const settlementRefundSchema = z.object({ note: noteSchema.optional() });

/** `POST /v2/admin/settlement/bulk-delete`: a selection of the management table. */
export const settlementBulkDeleteSchema = z.object({ settlementIds: distinctIds });

/**
 * Per id, deleted or why not (one transaction, per-row outcome: docs/decisions/0067). `code` is a
 * refusal code the console translates like any other.
 */
export const settlementBulkDeleteResultSchema = z.object({
  deleted: z.array(z.uuid()),
  refused: z.array(z.object({ settlementId: z.uuid(), code: z.string() })),
});

/** What an invoice upload recorded: the sniffed type wins over the name and the request's header. */
export const settlementInvoiceSchema = z.object({
  settlementId: z.uuid(),
  fileId: z.uuid(),
  fileName: z.string(),
  contentType: z.enum(['application/pdf', 'image/jpeg', 'image/png']),
  sizeBytes: z.number().int(),
});

/** `PUT /v2/admin/settlement/{id}/invoice?fileName=…`: the raw bytes are the body. */
export const settlementInvoiceQuerySchema = z.object({
  fileName: z.preprocess(blankToUndefined, z.string().trim().min(1).max(255).default('invoice')),
});

// ── Reports ───────────────────────────────────────────────────────────────────────────────────────

export const settlementReportQuerySchema = z.object({ month: referenceMonthSchema });

export const SETTLEMENT_REPORT_FORMATS = ['csv', 'xlsx'] as const;

export const settlementReportDownloadQuerySchema = z.object({
  month: referenceMonthSchema,
  format: z.enum(SETTLEMENT_REPORT_FORMATS),
  locale: z.preprocess(blankToUndefined, z.enum(LOCALE_IDS).default('pt-PT')),
});

const statusCountsSchema = z.object(
  Object.fromEntries(SETTLEMENT_STATUSES.map((status) => [status, z.number().int()])) as Record<
    (typeof SETTLEMENT_STATUSES)[number],
    z.ZodNumber
  >,
);

const reportFigures = {
  settlementCount: z.number().int(),
  caseCount: z.number().int(),
  grossCents: z.number().int(),
  feeCents: z.number().int(),
  netCents: z.number().int(),
  /** Σ of the admins' overrides, over the settlements that have one. */
  adjustedCents: z.number().int(),
  /** Σ coalesce(adjustedCents, netCents): what is or was owed. */
  payableCents: z.number().int(),
  /** Σ payable of settlements paid out (PAID and REFUNDED_PAID). */
  paidCents: z.number().int(),
  /** Σ payable of REFUNDED_PAID: paid, then refunded to the customer, so to recover from the doctor. */
  toRecoverCents: z.number().int(),
  statusCounts: statusCountsSchema,
};

/** One doctor's settlements of the month, every status. */
export const settlementReportRowSchema = z.object({
  professionalId: z.uuid(),
  professionalName: z.string(),
  ...reportFigures,
});

/** `GET /v2/admin/settlement/reports/`: per doctor, and totals the server checked against its own sum. */
export const settlementReportSchema = z.object({
  month: z.string(),
  currency: z.enum(CURRENCIES),
  items: z.array(settlementReportRowSchema),
  totals: z.object(reportFigures),
});

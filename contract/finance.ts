import { z } from 'zod';
import { SETTLEMENT_STATUSES } from '../domain/settlement-status';
import { int4Query, MAX_YEAR, MIN_YEAR } from './bounds';
import { blankToUndefined, optionalFilter, pageSchema, repeatable, sortOrderSchema } from './common';
import { CURRENCIES, MISSING_PROFESSIONAL_FIELDS, SETTLEMENT_SORTS } from './statuses';

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
    payableMinCents: cents.describe('payable = coalesce(adjustedCents, netCents), inclusive'),
    payableMaxCents: cents.describe('payable = coalesce(adjustedCents, netCents), inclusive'),
    hasInvoice: optionalFilter(z.enum(['true', 'false']).transform((value) => value === 'true')),
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

export const professionalSettlementQuerySchema = z.object({
  referenceMonth: optionalFilter(referenceMonthSchema),
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

export const professionalSettlementsSchema = z.object({
  items: z.array(professionalSettlementSchema),
  totals: z.object({ ...totalsShape, currency: z.enum(CURRENCIES) }),
});

import { z } from 'zod';
import { CASE_STATUSES, CASE_TYPES } from '../domain/case-status';
import { dateOrInstant, int4Query } from './bounds';
import { blankToUndefined, optionalFilter, pageSchema, sortOrderSchema } from './common';
import { CASE_SEARCH_MAX } from './limits';
import { CASE_SORTS, CURRENCIES, MESSAGE_TYPES } from './statuses';
import { genderSchema, roleSchema } from './users';

export const caseStatusSchema = z.enum(CASE_STATUSES);
export const caseTypeSchema = z.enum(CASE_TYPES);

const dateBound = optionalFilter(dateOrInstant()).describe(
  '`YYYY-MM-DD` (a whole day in Europe/Lisbon, inclusive) or an ISO 8601 instant',
);

/** price_cents is an int4 column. */
const cents = optionalFilter(int4Query().min(0));

export const CASE_PAGE_SIZE = { default: 50, max: 200 } as const;

export const caseListQuerySchema = z
  .object({
    status: z.preprocess(
      (value) => (Array.isArray(value) ? value : [value]).filter((v) => v !== undefined && v !== ''),
      z.array(caseStatusSchema),
    ),
    type: optionalFilter(caseTypeSchema),
    professionalId: optionalFilter(z.uuid()),
    customerId: optionalFilter(z.uuid()),
    closed: optionalFilter(z.enum(['true', 'false']).transform((value) => value === 'true')),
    createdFrom: dateBound,
    createdTo: dateBound,
    startFrom: dateBound,
    startTo: dateBound,
    endFrom: dateBound,
    endTo: dateBound,
    priceMinCents: cents,
    priceMaxCents: cents,
    q: optionalFilter(z.string().max(CASE_SEARCH_MAX)),
    sort: z.preprocess(blankToUndefined, z.enum(CASE_SORTS).default('createdAt')),
    order: z.preprocess(blankToUndefined, sortOrderSchema.default('desc')),
    limit: z.preprocess(
      blankToUndefined,
      z.coerce.number().int().min(1).max(CASE_PAGE_SIZE.max).default(CASE_PAGE_SIZE.default),
    ),
    cursor: optionalFilter(z.string().max(2000)),
  })
  .superRefine((query, context) => {
    if (
      query.priceMinCents !== undefined &&
      query.priceMaxCents !== undefined &&
      query.priceMinCents > query.priceMaxCents
    )
      context.addIssue({ code: 'custom', path: ['priceMaxCents'], message: 'below priceMinCents' });
  });

export const casePersonSchema = z.object({ id: z.uuid(), name: z.string() });

export const caseItemSchema = z.object({
  id: z.uuid(),
  customer: casePersonSchema,
  professional: casePersonSchema,
  closed: z.boolean(),
  status: caseStatusSchema,
  totalMessages: z.number().int(),
  type: caseTypeSchema,
  startDate: z.iso.datetime().nullable(),
  endDate: z.iso.datetime().nullable(),
  priceCents: z.number().int(),
  currency: z.enum(CURRENCIES),
  professionalSummary: z.string().nullable(),
  createdAt: z.iso.datetime(),
  review: z.object({ rating: z.number().int().min(1).max(5), createdAt: z.iso.datetime() }).nullable(),
});

export const casePageSchema = pageSchema(caseItemSchema);

export const caseIdParamsSchema = z.object({ id: z.string() });

export const MESSAGE_PAGE_SIZE = { default: 100, max: 500 } as const;

export const messagePageQuerySchema = z.object({
  limit: z.preprocess(
    blankToUndefined,
    z.coerce.number().int().min(1).max(MESSAGE_PAGE_SIZE.max).default(MESSAGE_PAGE_SIZE.default),
  ),
  cursor: z.string().max(2000).optional(),
});

export const caseAttachmentSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  contentType: z.string(),
  sizeBytes: z.number().int(),
  url: z.string(),
});

export const caseMessageSchema = z.object({
  id: z.uuid(),
  type: z.enum(MESSAGE_TYPES),
  // gender: pt-PT agrees the sender's role with it (Médico/Médica); null when unknown.
  sender: z.object({ id: z.uuid(), name: z.string(), role: roleSchema, gender: genderSchema.nullable() }),
  createdAt: z.iso.datetime(),
  text: z.string().nullable(),
  callDurationSeconds: z.number().int().nullable(),
  voice: z
    .object({
      durationSeconds: z.number(),
      contentType: z.string(),
      sizeBytes: z.number().int(),
      url: z.string(),
    })
    .nullable(),
  attachments: z.array(caseAttachmentSchema),
});

/** One page of messages; `case` is the same on every page, for the chat header. */
export const messagePageSchema = pageSchema(caseMessageSchema).extend({ case: caseItemSchema });

export const caseReviewQuerySchema = z.object({ caseId: z.string().min(1) });

export const caseReviewSchema = z.object({
  caseId: z.uuid(),
  rating: z.number().int().min(1).max(5),
  comment: z.string().nullable(),
  createdAt: z.iso.datetime(),
});

export const attachmentQuerySchema = z.object({
  id: z.uuid().describe('The attachment id, as listed on its message'),
});
export const voiceParamsSchema = z.object({ id: z.string().describe('The VOICE message id') });

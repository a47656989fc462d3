import { z } from 'zod';
import { CASE_STATUSES, CASE_TYPES } from '../../domain/case-status';
import { dateOrInstant, int4Query } from '../http/bounds';
import { now } from '../http/context';
import { errorBodySchema } from '../http/errors';
import type { RouteRegistry } from '../http/routes';
import { CASE_SORTS, type CaseSort, listCases } from '../services/cases';
import { closeCaseByAdmin } from '../services/cases-close';

/** The specification drops empty filters before a search; the API does the same for any client. */
const blankToUndefined = (value: unknown) => (value === '' ? undefined : value);
const optional = <S extends z.ZodType>(schema: S) => z.preprocess(blankToUndefined, schema.optional());

const dateBound = optional(
  dateOrInstant().transform((value) => (value.length === 10 ? { date: value } : { instant: value })),
).describe('`YYYY-MM-DD` (a whole day in Europe/Lisbon, inclusive) or an ISO 8601 instant');

/** price_cents is an int4 column. */
const cents = optional(int4Query().min(0));

export const caseListQuerySchema = z
  .object({
    status: z.preprocess(
      (value) => (Array.isArray(value) ? value : [value]).filter((v) => v !== undefined && v !== ''),
      z.array(z.enum(CASE_STATUSES)),
    ),
    type: optional(z.enum(CASE_TYPES)),
    professionalId: optional(z.uuid()),
    customerId: optional(z.uuid()),
    closed: optional(z.enum(['true', 'false']).transform((value) => value === 'true')),
    createdFrom: dateBound,
    createdTo: dateBound,
    startFrom: dateBound,
    startTo: dateBound,
    endFrom: dateBound,
    endTo: dateBound,
    priceMinCents: cents,
    priceMaxCents: cents,
    q: optional(z.string().max(200)),
    sort: z.preprocess(
      blankToUndefined,
      z.enum(Object.keys(CASE_SORTS) as [CaseSort, ...CaseSort[]]).default('createdAt'),
    ),
    order: z.preprocess(blankToUndefined, z.enum(['asc', 'desc']).default('desc')),
    limit: z.preprocess(blankToUndefined, z.coerce.number().int().min(1).max(200).default(50)),
    cursor: optional(z.string().max(2000)),
  })
  .superRefine((query, context) => {
    if (
      query.priceMinCents !== undefined &&
      query.priceMaxCents !== undefined &&
      query.priceMinCents > query.priceMaxCents
    )
      context.addIssue({ code: 'custom', path: ['priceMaxCents'], message: 'below priceMinCents' });
  });

const person = z.object({ id: z.uuid(), name: z.string() });

export const caseItemSchema = z.object({
  id: z.uuid(),
  customer: person,
  professional: person,
  closed: z.boolean(),
  status: z.enum(CASE_STATUSES),
  totalMessages: z.number().int(),
  type: z.enum(CASE_TYPES),
  startDate: z.iso.datetime().nullable(),
  endDate: z.iso.datetime().nullable(),
  priceCents: z.number().int(),
  currency: z.literal('EUR'),
  professionalSummary: z.string().nullable(),
  createdAt: z.iso.datetime(),
  review: z.object({ rating: z.number().int().min(1).max(5), createdAt: z.iso.datetime() }).nullable(),
});

export const caseIdParamsSchema = z.object({ id: z.string() });

export function registerAdminCaseRoutes(routes: RouteRegistry): void {
  routes.add({
    method: 'get',
    path: '/v2/admin/cases',
    summary: 'Find cases (filters, search by case id or customer/professional name, keyset pages)',
    tags: ['cases'],
    auth: 'admin',
    query: caseListQuerySchema,
    responses: {
      200: {
        description: 'One page of cases; pass `nextCursor` back as `cursor` with the same sort and filters',
        schema: z.object({
          items: z.array(caseItemSchema),
          nextCursor: z.string().nullable(),
          total: z.number().int(),
        }),
      },
    },
    async handler(c, { query }) {
      return c.json(await listCases(c.var.deps.db, query));
    },
  });

  routes.add({
    method: 'post',
    path: '/v2/admin/cases/:id/close',
    summary: 'Close an open case as an administrator (→ CLOSED_BY_ADMIN)',
    tags: ['cases'],
    auth: 'admin',
    params: caseIdParamsSchema,
    responses: {
      200: { description: 'The case, now closed', schema: caseItemSchema },
      404: { description: 'No such case (`CASE_NOT_FOUND`)', schema: errorBodySchema },
      409: {
        description: 'The case is already closed (`CASE_ALREADY_CLOSED`) or cannot be closed from its status',
        schema: errorBodySchema,
      },
    },
    async handler(c, { params }) {
      return c.json(await closeCaseByAdmin(c.var.deps.db, params.id, c.var.session.userId, now(c)));
    },
  });
}

import { z } from 'zod';
import { SORT_ORDERS } from './statuses';

export const fieldErrorSchema = z.object({ field: z.string(), code: z.string() });
export type FieldError = z.infer<typeof fieldErrorSchema>;

/** The one error body every `/v2` failure answers with; the console translates `code`. */
export const errorBodySchema = z.object({
  code: z.string(),
  message: z.string().optional(),
  errors: z.array(fieldErrorSchema).optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

/**
 * The one list shape (DESIGN §5): `{items, nextCursor, total}`, and `totalEstimated: true` where the
 * total is the planner's estimate (users). Every list response is built with this factory.
 */
export const pageSchema = <T extends z.ZodType>(item: T) =>
  z.object({
    items: z.array(item),
    nextCursor: z.string().nullable(),
    total: z.number().int(),
    totalEstimated: z.literal(true).optional(),
  });
/** A page of any item type: the factory's shape with its items typed. */
export type Page<T> = Omit<z.infer<ReturnType<typeof pageSchema>>, 'items'> & { items: T[] };

export const sortOrderSchema = z.enum(SORT_ORDERS);

/** E-mails are compared lower-cased and trimmed everywhere (login, throttling, uniqueness). */
export const emailField = z.preprocess(
  (value) => (typeof value === 'string' ? value.trim().toLowerCase() : value),
  z.email(),
);

/** The specification drops empty filters before a search; the API does the same for any client. */
export const blankToUndefined = (value: unknown) => (value === '' ? undefined : value);
export const optionalFilter = <S extends z.ZodType>(schema: S) =>
  z.preprocess(blankToUndefined, schema.optional());

/** The console drops empty filters; a hand-written `?q=&status=` means the same as omitting them. */
export function dropEmpty(query: unknown): unknown {
  if (query === null || typeof query !== 'object') return query;
  const entries = Object.entries(query as Record<string, unknown>)
    .map(([key, value]) => [key, Array.isArray(value) ? value.filter((v) => v !== '') : value] as const)
    .filter(([, value]) => value !== '' && !(Array.isArray(value) && value.length === 0));
  return Object.fromEntries(entries);
}

/** A repeatable query key (`status=A&status=B`): one value reads as a list of one. */
export const repeatable = <T extends z.ZodType>(item: T) =>
  z.preprocess((value) => (typeof value === 'string' ? [value] : value), z.array(item).max(20)).optional();

/** `/v2/admin/users/{id}` and its siblings: a UUID, checked before SQL casts it. */
export const idParamsSchema = z.object({ id: z.guid() });

/** Answers a route sends with no other fields: health. */
export const healthSchema = z.object({ status: z.literal('ok') });

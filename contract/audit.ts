import { z } from 'zod';
import { dateOrInstant } from './bounds';
import { dropEmpty, pageSchema, repeatable } from './common';

/**
 * An audit action code as the server writes it: `area.verb` in lower case with hyphens
 * (`user.disable`, `settlement.funds-released`). The console translates each through `auditActions.*`.
 */
export const auditActionSchema = z
  .string()
  .max(80)
  .regex(/^[a-z][a-z-]*(\.[a-z][a-z-]*)+$/);

/** What an audit row is about (`user`, `case`, `interest_area`, …). */
export const auditEntityTypeSchema = z
  .string()
  .max(40)
  .regex(/^[a-z][a-z_]*$/);

export const AUDIT_PAGE_SIZE = { default: 50, max: 200 } as const;

export const auditListQuerySchema = z.preprocess(
  dropEmpty,
  z
    .object({
      actorId: z.guid().optional(),
      action: repeatable(auditActionSchema),
      entityType: auditEntityTypeSchema.optional(),
      entityId: z
        .string()
        .max(100)
        .refine((id) => !id.includes('\u0000'))
        .optional(),
      from: dateOrInstant().optional().describe('`YYYY-MM-DD` (a whole Lisbon day) or an instant'),
      to: dateOrInstant().optional().describe('inclusive; `YYYY-MM-DD` covers the whole Lisbon day'),
      limit: z.coerce.number().int().min(1).max(AUDIT_PAGE_SIZE.max).default(AUDIT_PAGE_SIZE.default),
      cursor: z.string().max(2000).optional(),
    })
    .superRefine((query, context) => {
      if (query.entityId !== undefined && query.entityType === undefined)
        context.addIssue({ code: 'custom', path: ['entityType'], message: 'required with entityId' });
      if (query.from && query.to && query.from > query.to)
        context.addIssue({ code: 'custom', path: ['to'], message: 'before from' });
    }),
);

export const auditLogItemSchema = z.object({
  /** The row's sequence number, as text (a bigint). */
  id: z.string(),
  at: z.iso.datetime(),
  /** Null: done by the system (e.g. funds released on their date). */
  actor: z.object({ id: z.guid(), name: z.string() }).nullable(),
  action: z.string(),
  entityType: z.string(),
  entityId: z.string(),
  /** A name to show for the entity where one is cheap to find (users, cases, areas); null otherwise. */
  entityLabel: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
});

export const auditLogPageSchema = pageSchema(auditLogItemSchema);

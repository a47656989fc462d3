import { z } from 'zod';
import { pageSchema } from './common';
import { AREA_NAME_MAX } from './limits';

export const interestAreaSchema = z.object({
  id: z.guid(),
  name: z.string(),
  professionals: z.number().int(),
  created: z.iso.datetime(),
});

/** Trimmed, inner runs of spaces collapsed: the same folding as the unique index of migration 0002. */
export const areaNameSchema = z
  .string()
  .transform((name) => name.trim().replace(/\s+/g, ' '))
  .pipe(z.string().min(1).max(AREA_NAME_MAX));

export const createAreaBodySchema = z.object({ name: areaNameSchema });
export const areaListQuerySchema = z.object({ q: z.string().trim().max(80).optional() });

/** Every area, by name: the list is short, so `nextCursor` is always null. */
export const areaListSchema = pageSchema(interestAreaSchema).extend({ nextCursor: z.null() });

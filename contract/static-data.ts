import { z } from 'zod';
import { GENDERS } from './statuses';
import { localeIdSchema } from './users';

export const countrySchema = z.object({
  code: z.string().length(2),
  name: z.object({ 'pt-PT': z.string(), 'en-GB': z.string() }),
  phoneCode: z.string(),
});

export const localeEntrySchema = z.object({ id: localeIdSchema, enabled: z.boolean() });
export const localeNameSchema = z.object({ id: localeIdSchema, name: z.string() });
export const genderEntrySchema = z.object({ id: z.enum(GENDERS) });

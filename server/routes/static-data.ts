import { z } from 'zod';
import type { RouteRegistry } from '../http/routes';

const countrySchema = z.object({
  code: z.string().length(2),
  name: z.object({ 'pt-PT': z.string(), 'en-GB': z.string() }),
  phoneCode: z.string(),
});

// Each language named in itself, as language pickers conventionally do.
const LOCALE_NAMES: Record<string, string> = {
  'pt-PT': 'Português',
  'en-GB': 'English',
};

export function registerStaticDataRoutes(routes: RouteRegistry): void {
  routes.add({
    method: 'get',
    path: '/v2/static-data/country',
    summary: 'Countries with their names in every locale and phone codes',
    tags: ['static-data'],
    auth: 'public',
    responses: { 200: { description: 'Countries by code', schema: z.array(countrySchema) } },
    async handler(c) {
      const { rows } = await c.var.deps.db.query<{
        code: string;
        name_pt: string;
        name_en: string;
        phone_code: string;
      }>('SELECT code, name_pt, name_en, phone_code FROM countries ORDER BY code');
      return c.json(
        rows.map((row) => ({
          code: row.code,
          name: { 'pt-PT': row.name_pt, 'en-GB': row.name_en },
          phoneCode: row.phone_code,
        })),
      );
    },
  });

  routes.add({
    method: 'get',
    path: '/v2/static-data/locale',
    summary: 'Every locale the product knows, named in itself',
    tags: ['static-data'],
    auth: 'public',
    responses: {
      200: { description: 'Locales', schema: z.array(z.object({ id: z.string(), name: z.string() })) },
    },
    async handler(c) {
      const { rows } = await c.var.deps.db.query<{ id: string }>('SELECT id FROM locales ORDER BY id DESC');
      return c.json(rows.map((row) => ({ id: row.id, name: LOCALE_NAMES[row.id] ?? row.id })));
    },
  });

  routes.add({
    method: 'get',
    path: '/v2/static-data/gender',
    summary: 'Genders a user may have',
    tags: ['static-data'],
    auth: 'public',
    responses: {
      200: { description: 'Genders', schema: z.array(z.object({ id: z.enum(['male', 'female']) })) },
    },
    handler: (c) => c.json([{ id: 'male' }, { id: 'female' }]),
  });
}

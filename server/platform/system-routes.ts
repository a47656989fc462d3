import { z } from 'zod';
import { healthSchema } from '../../contract/common';
import {
  countrySchema,
  genderEntrySchema,
  localeEntrySchema,
  localeNameSchema,
} from '../../contract/static-data';
import { GENDERS, type LocaleId } from '../../contract/statuses';
import type { RouteRegistry } from '../http/routes';

// Each language named in itself, as language pickers conventionally do.
const LOCALE_NAMES: Record<string, string> = {
  'pt-PT': 'Português',
  'en-GB': 'English',
};

/** What every deployment answers: health, locales and the static data of the forms. */
export function registerSystemRoutes(routes: RouteRegistry): void {
  registerHealthRoutes(routes);
  registerStaticDataRoutes(routes);
  registerLocaleRoutes(routes);
}

function registerHealthRoutes(routes: RouteRegistry): void {
  routes.add({
    method: 'get',
    path: '/v2/health',
    summary: 'Liveness and database reachability',
    tags: ['system'],
    auth: 'public',
    responses: { 200: { description: 'Up', schema: healthSchema } },
    async handler(c) {
      // A load balancer should stop routing here when the database is unreachable.
      await c.var.deps.db.query('SELECT 1');
      return c.json({ status: 'ok' as const });
    },
  });
}

function registerStaticDataRoutes(routes: RouteRegistry): void {
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
      200: { description: 'Locales', schema: z.array(localeNameSchema) },
    },
    async handler(c) {
      const { rows } = await c.var.deps.db.query<{ id: LocaleId }>('SELECT id FROM locales ORDER BY id DESC');
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
      200: { description: 'Genders', schema: z.array(genderEntrySchema) },
    },
    handler: (c) => c.json(GENDERS.map((id) => ({ id }))),
  });
}

function registerLocaleRoutes(routes: RouteRegistry): void {
  routes.add({
    method: 'get',
    path: '/v2/locales',
    summary: 'Locales and whether each is enabled',
    tags: ['static-data'],
    auth: 'public',
    responses: {
      200: { description: 'Locales', schema: z.array(localeEntrySchema) },
    },
    async handler(c) {
      // pt-PT first: it is the default and the console lists it first.
      const { rows } = await c.var.deps.db.query<{ id: LocaleId; enabled: boolean }>(
        'SELECT id, enabled FROM locales ORDER BY id DESC',
      );
      return c.json(rows);
    },
  });
}

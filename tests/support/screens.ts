import { ROUTES } from '../../src/app/routes';
import type { TestServer } from './server';

/** Every screen the console routes to without an id (sign-in and sign-out apart). */
export const FIXED_PATHS = ROUTES.map((route) => route.path).filter(
  (path) => !path.includes(':') && path !== '/logout' && path !== '/login',
);

/** The routes with an `:id`, each filled with a record of the seed. */
export async function recordPaths(server: TestServer): Promise<string[]> {
  const one = async (sql: string) => (await server.db.query<{ id: string }>(sql)).rows[0]!.id;
  return [
    `/customers/${await one(`SELECT id FROM users WHERE role = 'CUSTOMER' ORDER BY id LIMIT 1`)}`,
    `/professionals/${await one(`SELECT id FROM users WHERE role = 'PROFESSIONAL' ORDER BY id LIMIT 1`)}`,
    `/chat/${await one('SELECT case_id AS id FROM case_messages ORDER BY case_id LIMIT 1')}`,
    `/sepa/${await one('SELECT id FROM sepa_files ORDER BY id LIMIT 1')}`,
  ];
}

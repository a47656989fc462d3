import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../support/databases';
import { recordUnhandledRejections } from '../support/unhandled-rejections';
import { type CaseWorld, startCaseWorld } from './cases-support';

/** Every class of input PostgreSQL refuses although a loose schema would let it through. */
const BAD_DATES = [
  '0000-01-01',
  '0000-01-01T00:00:00Z',
  '1899-12-31',
  '2101-01-01',
  '2024-01-01T00:00:00-23:59',
  '2024-01-01T00:00:00+23:59',
  '2024-01-01T00:00:00+14:01',
];
const NUL = 'a\u0000b';
const HUGE_INTEGERS = ['2147483648', '-2147483649', '99999999999999999999', '1e400'];
const UUID = '00000000-0000-0000-0000-000000000000';
const forge = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
/** Keys no sort column can cast: text that is not a time or a number, empty, fractional. */
const UNCASTABLE_KEYS = ['garbage', '', 'abc', '1.5', '0000-01-01', '2147483648', NUL];

/** Cursors of every shape: both routes' shapes with keys that cannot be cast, and broken ones. */
function forgedCursors(sort: string | undefined, order: string): string[] {
  const s = sort ?? 'createdAt';
  return [
    ...UNCASTABLE_KEYS.flatMap((key) => [
      forge([s, order, key, UUID]),
      forge({ sort: s, order, key, id: UUID }),
      forge({ key, id: UUID }),
    ]),
    forge([s, order, 1.5, UUID]),
    forge({ sort: s, order, key: { nested: 1 }, id: UUID }),
    forge({ sort: s, order, key: '2024-01-01', id: 'not-a-uuid' }),
    forge([s, order]),
    forge(null),
    forge('text'),
    'not base64 at all!',
    Buffer.from('{"unterminated').toString('base64url'),
  ];
}

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema: { type?: string; format?: string; enum?: string[]; anyOf?: { format?: string }[] };
}
interface ListRoute {
  path: string;
  parameters: Parameter[];
}

const isDate = (p: Parameter) =>
  [p.schema, ...(p.schema.anyOf ?? [])].some((s) => s.format === 'date' || s.format === 'date-time');

describe.each(testDatabaseKinds())('hostile query strings on $name', (kind) => {
  let world: CaseWorld;
  let routes: ListRoute[];
  let caseWithMessages: string;
  const rejections = recordUnhandledRejections();

  beforeAll(async () => {
    world = await startCaseWorld(kind);
    const { rows } = await world.db.query<{ case_id: string }>(
      'SELECT case_id FROM case_messages GROUP BY case_id ORDER BY count(*) DESC LIMIT 1',
    );
    caseWithMessages = rows[0]!.case_id;
    // The OpenAPI document is generated from the route registry, with each query schema.
    const document = (await (await world.get('/v2/openapi.json')).json()) as {
      paths: Record<string, Record<string, { parameters: Parameter[] }>>;
    };
    routes = Object.entries(document.paths).flatMap(([path, operations]) => {
      const parameters = operations.get?.parameters.filter((p) => p.in === 'query') ?? [];
      return parameters.length > 0 ? [{ path, parameters }] : [];
    });
  });
  afterAll(async () => {
    rejections.stop();
    await world?.stop();
  });

  const urlOf = (route: ListRoute, query: [string, string][]) =>
    `${route.path.replace('{id}', caseWithMessages)}?${new URLSearchParams(query)}`;

  async function answer(route: ListRoute, query: [string, string][]) {
    const response = await world.get(urlOf(route, query));
    const body = (await response.json().catch(() => ({}))) as {
      code?: string;
      errors?: { field: string }[];
    };
    return { request: urlOf(route, query), status: response.status, code: body.code, body };
  }

  it('walks every list route with a query schema', () => {
    expect(routes.map((route) => route.path)).toEqual(
      expect.arrayContaining(['/v2/admin/users', '/v2/admin/cases', '/v2/admin/case/{id}/messages']),
    );
  });

  const settle = () => new Promise((resolve) => setTimeout(resolve, 200));

  it.each(['createdFrom', 'createdTo', 'lastActiveFrom', 'lastActiveTo'])(
    'refuses a year-0000 %s on the users list before SQL, leaving no promise rejected unhandled',
    async (field) => {
      for (const value of ['0000-01-01', '2024-01-01T00:00:00-23:59']) {
        const got = await answer({ path: '/v2/admin/users', parameters: [] }, [[field, value]]);
        expect({ status: got.status, code: got.code }).toEqual({ status: 400, code: 'VALIDATION_ERROR' });
        expect(got.body.errors).toContainEqual(expect.objectContaining({ field }));
      }
      await settle();
      expect(rejections.reasons).toEqual([]);
    },
  );

  it('answers bad dates, NUL bytes and huge integers with 400 and a code, never 500', async () => {
    for (const route of routes)
      for (const parameter of route.parameters) {
        for (const value of [...BAD_DATES, ...HUGE_INTEGERS, NUL]) {
          const got = await answer(route, [[parameter.name, value]]);
          expect(got.status, got.request).not.toBe(500);
          if (got.status >= 400) expect(got.code, got.request).toEqual(expect.any(String));
        }
        // A NUL byte is refused in any parameter; a date or integer parameter refuses out-of-range values.
        const refused = [
          NUL,
          ...(isDate(parameter) ? BAD_DATES : []),
          ...(parameter.schema.type === 'integer' ? HUGE_INTEGERS : []),
        ];
        for (const value of refused) {
          const got = await answer(route, [[parameter.name, value]]);
          expect({ request: got.request, status: got.status, code: got.code }).toEqual({
            request: got.request,
            status: 400,
            code: 'VALIDATION_ERROR',
          });
          expect(got.body.errors, got.request).toContainEqual(
            expect.objectContaining({ field: parameter.name }),
          );
        }
      }
  });

  /**
   * A valid value for a parameter a list cannot do without (SEPA to process pages one month, the
   * provider documents one kind), so its cursor is what is judged. (The document also marks parameters
   * with a default as required.)
   */
  const REQUIRED_EXAMPLES: Record<string, string> = { referenceMonth: '2026-04', kind: 'INVOICE' };
  const requiredOf = (route: ListRoute): [string, string][] =>
    route.parameters.flatMap((p) => {
      const example = REQUIRED_EXAMPLES[p.name];
      return p.required && example !== undefined ? [[p.name, example] as [string, string]] : [];
    });

  it('answers forged cursors of every shape with 400 INVALID_CURSOR, or a page when the key is valid', async () => {
    for (const route of routes) {
      if (!route.parameters.some((p) => p.name === 'cursor')) continue;
      const sorts = route.parameters.find((p) => p.name === 'sort')?.schema.enum ?? [undefined];
      for (const sort of sorts)
        for (const order of ['asc', 'desc'])
          for (const cursor of forgedCursors(sort, order)) {
            const query: [string, string][] = [...requiredOf(route), ['cursor', cursor]];
            if (sort) query.push(['sort', sort], ['order', order]);
            const got = await answer(route, query);
            if (got.status !== 200)
              expect({ request: got.request, status: got.status, code: got.code }).toEqual({
                request: got.request,
                status: 400,
                code: 'INVALID_CURSOR',
              });
          }
    }
  });

  it.each([
    ['/v2/admin/users', 'created', forge(['created', 'desc', 'garbage', UUID])],
    ['/v2/admin/users', 'created', forge(['created', 'desc', '', UUID])],
    ['/v2/admin/users', 'lastActive', forge(['lastActive', 'desc', 'garbage', UUID])],
    ['/v2/admin/cases', 'createdAt', forge({ sort: 'createdAt', order: 'desc', key: 'garbage', id: UUID })],
    ['/v2/admin/cases', 'priceCents', forge({ sort: 'priceCents', order: 'desc', key: 'abc', id: UUID })],
    [
      '/v2/admin/cases',
      'priceCents',
      forge({ sort: 'priceCents', order: 'desc', key: '2147483648', id: UUID }),
    ],
    [
      '/v2/admin/cases',
      'totalMessages',
      forge({ sort: 'totalMessages', order: 'desc', key: '1.5', id: UUID }),
    ],
    ['/v2/admin/case/{id}/messages', undefined, forge({ key: 'garbage', id: UUID })],
  ])('refuses the uncastable cursor key on %s sorted by %s', async (path, sort, cursor) => {
    const query: [string, string][] = [['cursor', cursor]];
    if (sort) query.push(['sort', sort], ['order', 'desc']);
    const got = await answer({ path, parameters: [] }, query);
    expect({ status: got.status, code: got.code }).toEqual({ status: 400, code: 'INVALID_CURSOR' });
  });

  it('refuses a NUL byte in a JSON body (an area name) with 400 naming the field', async () => {
    const response = await fetch(`${world.url}/v2/admin/interest-areas`, {
      method: 'POST',
      headers: { authorization: `Bearer ${world.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: NUL }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      code: 'VALIDATION_ERROR',
      errors: [{ field: 'name', code: 'invalid' }],
    });
  });

  it('still answers /v2/health, and no promise was left rejected without a handler', async () => {
    // Give a rejection that raced the last answer time to surface.
    await settle();
    expect((await world.get('/v2/health')).status).toBe(200);
    expect(rejections.reasons).toEqual([]);
  });
});

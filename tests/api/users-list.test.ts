import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/client';
import type { UserSummary } from '../../server/users/summary';
import { testDatabaseKinds } from '../support/databases';
import { bearer, insertUser, issueToken, type RunningApi, startApi } from './harness';

interface Fixture {
  role: 'CUSTOMER' | 'PROFESSIONAL';
  name: string;
  email: string;
  status: 'NEW_USER' | 'EMAIL_VERIFIED' | 'PROFESSIONAL_VERIFIED' | 'DISABLED';
  country: string;
  gender: 'male' | 'female';
  phone: string;
  tax: string | null;
  college: string | null;
  shareLink: string | null;
  created: string;
  lastActive: string | null;
}

const FIRST = ['João', 'Maria', 'Ana', 'Pedro', 'Inês', 'Rui', 'Sofia', 'Tiago'];
const LAST = ['Silva', 'Conceição', 'Ferreira', 'Costa', 'Sousa'];
const STATUSES = ['NEW_USER', 'EMAIL_VERIFIED', 'PROFESSIONAL_VERIFIED', 'DISABLED'] as const;

const fixtures: Fixture[] = Array.from({ length: 40 }, (_, i) => {
  const role = i % 3 === 0 ? 'PROFESSIONAL' : 'CUSTOMER';
  const status = STATUSES[i % 4]!;
  const first = FIRST[i % FIRST.length]!;
  const last = LAST[i % LAST.length]!;
  const ascii = first
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '');
  return {
    role,
    name: `${first} ${last}`,
    email: `${ascii}.${i}@list.test`,
    status: role === 'CUSTOMER' && status === 'PROFESSIONAL_VERIFIED' ? 'EMAIL_VERIFIED' : status,
    country: i % 5 === 0 ? 'BR' : 'PT',
    gender: i % 2 === 0 ? 'female' : 'male',
    phone: `91${String(1_000_000 + i * 7919).padStart(7, '0')}`,
    tax: i % 4 === 1 ? null : String(200_000_000 + i * 1013),
    college: role === 'PROFESSIONAL' ? String(40_000 + i) : null,
    shareLink: role === 'PROFESSIONAL' && i % 2 === 0 ? `dr-${ascii.slice(0, 3)}-link-${i}` : null,
    // two users share each creation instant, so ties are broken by id
    created: new Date(Date.UTC(2025, 0, 1 + Math.floor(i / 2), 10)).toISOString(),
    lastActive: i % 4 === 0 ? null : new Date(Date.UTC(2025, 6, 1 + ((i * 7) % 30), 12)).toISOString(),
  };
});

async function insertFixture(db: Database, f: Fixture): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO users (role, email, name, full_name, gender, country, phone_number, phone_country_code, tax_number,
                        college_number, share_link_id, email_verified, professional_verified, disabled,
                        created_at, last_active_at)
     VALUES ($1, $2, $3, $3, $4, $5, $6, '+351', $7, $8, $9, $10, $11, $12, $13, $14) RETURNING id`,
    [
      f.role,
      f.email,
      f.name,
      f.gender,
      f.country,
      f.phone,
      f.tax,
      f.college,
      f.shareLink,
      f.status !== 'NEW_USER',
      f.status === 'PROFESSIONAL_VERIFIED',
      f.status === 'DISABLED',
      f.created,
      f.lastActive,
    ],
  );
  return rows[0]!.id;
}

type Page = { items: UserSummary[]; nextCursor: string | null; total: number; totalEstimated?: true };

describe.each(testDatabaseKinds())('GET /v2/admin/users on $name', (kind) => {
  let db: Database;
  let api: RunningApi;
  let token: string;
  let adminId: string;
  const ids = new Map<string, Fixture>();
  let areaA: string;
  let areaB: string;

  const get = async (query: string) => {
    const response = await fetch(`${api.url}/v2/admin/users?${query}`, { headers: bearer(token) });
    return { status: response.status, body: (await response.json()) as Page & { code?: string } };
  };
  const page = async (query: string): Promise<Page> => {
    const { status, body } = await get(query);
    expect(status, JSON.stringify(body)).toBe(200);
    return body;
  };
  const emails = (p: Page) => p.items.map((u) => u.email);
  const expected = (predicate: (f: Fixture) => boolean) =>
    fixtures
      .filter(predicate)
      .map((f) => f.email)
      .sort();

  beforeAll(async () => {
    db = await kind.open();
    api = await startApi(db);
    adminId = await insertUser(db, {
      email: 'admin@list.test',
      admin: true,
      role: 'ADMIN',
      emailVerified: true,
    });
    await db.query(`UPDATE users SET created_at = '2020-01-01T00:00:00Z' WHERE id = $1`, [adminId]);
    token = await issueToken(db, adminId);
    for (const f of fixtures) ids.set(await insertFixture(db, f), f);
    const areas = await db.query<{ id: string }>(
      `INSERT INTO interest_areas (name) VALUES ('Cardiologia'), ('Pediatria') RETURNING id`,
    );
    [areaA, areaB] = areas.rows.map((r) => r.id) as [string, string];
    const professionals = [...ids].filter(([, f]) => f.role === 'PROFESSIONAL').map(([id]) => id);
    for (const [i, id] of professionals.entries())
      await db.query('INSERT INTO professional_interest_areas (professional_id, area_id) VALUES ($1, $2)', [
        id,
        i % 2 === 0 ? areaA : areaB,
      ]);
  });
  afterAll(async () => {
    await api.stop();
    await db.close();
  });

  it('lists everyone newest first with an exact total and the summary fields', async () => {
    const result = await page('limit=200');
    expect(result.total).toBe(fixtures.length + 1);
    expect(result.totalEstimated).toBeUndefined();
    expect(result.nextCursor).toBeNull();
    const created = result.items.map((u) => u.created);
    expect(created).toEqual([...created].sort().reverse());
    const joao = result.items.find((u) => u.email === 'joao.0@list.test')!;
    expect(joao).toMatchObject({
      role: 'PROFESSIONAL',
      name: 'João Silva',
      status: 'NEW_USER',
      country: 'BR',
      gender: 'female',
      phoneNumberCountryCode: '+351',
      collegeNumber: '40000',
      shareLinkId: 'dr-joa-link-0',
      userDisabled: false,
      isAdmin: false,
      lastActive: null,
    });
    expect(joao.areasOfInterest).toEqual([{ id: areaA, name: 'Cardiologia' }]);
  });

  it('defaults to 50 rows a page', async () => {
    await db.query(
      `INSERT INTO users (role, email, name, created_at)
       SELECT 'CUSTOMER', 'bulk' || n || '@default.test', 'Bulk ' || n, '2019-01-01T00:00:00Z'::timestamptz + n * interval '1 minute'
         FROM generate_series(1, 30) n`,
    );
    try {
      const result = await page('');
      expect(result.items).toHaveLength(50);
      expect(result.total).toBe(fixtures.length + 31);
      expect(result.nextCursor).not.toBeNull();
    } finally {
      await db.query(`DELETE FROM users WHERE email LIKE '%@default.test'`);
    }
  });

  it('filters by role, repeated status, country, gender and area of interest', async () => {
    expect(emails(await page('role=PROFESSIONAL&limit=200')).sort()).toEqual(
      expected((f) => f.role === 'PROFESSIONAL'),
    );
    const twoStatuses = await page('status=NEW_USER&status=DISABLED&limit=200');
    expect(emails(twoStatuses).sort()).toEqual(expected((f) => ['NEW_USER', 'DISABLED'].includes(f.status)));
    expect(twoStatuses.total).toBe(twoStatuses.items.length);
    expect(emails(await page('role=CUSTOMER&status=EMAIL_VERIFIED&limit=200')).sort()).toEqual(
      expected((f) => f.role === 'CUSTOMER' && f.status === 'EMAIL_VERIFIED'),
    );
    expect(emails(await page('country=BR&limit=200')).sort()).toEqual(expected((f) => f.country === 'BR'));
    expect(emails(await page('gender=male&role=CUSTOMER&limit=200')).sort()).toEqual(
      expected((f) => f.gender === 'male' && f.role === 'CUSTOMER'),
    );
    const inA = await page(`areaOfInterest=${areaA}&limit=200`);
    expect(inA.items.length).toBeGreaterThan(0);
    expect(inA.items.every((u) => u.areasOfInterest.some((a) => a.id === areaA))).toBe(true);
    const inEither = await page(`areaOfInterest=${areaA}&areaOfInterest=${areaB}&limit=200`);
    expect(emails(inEither).sort()).toEqual(expected((f) => f.role === 'PROFESSIONAL'));
  });

  it('filters created and last-active dates by Lisbon day or by instant', async () => {
    // days 2025-01-03..2025-01-05 hold fixtures 4..9 (two per day, at 10:00 UTC)
    expect(emails(await page('createdFrom=2025-01-03&createdTo=2025-01-05&limit=200')).sort()).toEqual(
      fixtures
        .slice(4, 10)
        .map((f) => f.email)
        .sort(),
    );
    expect(
      emails(await page('createdFrom=2025-01-03T10:00:00Z&createdTo=2025-01-03T10:00:00Z&limit=200')).sort(),
    ).toEqual(
      fixtures
        .slice(4, 6)
        .map((f) => f.email)
        .sort(),
    );
    const from = '2025-07-10';
    const active = await page(`lastActiveFrom=${from}&limit=200`);
    expect(emails(active).sort()).toEqual(
      expected((f) => f.lastActive !== null && f.lastActive >= `${from}T00:00:00.000Z`),
    );
    expect(emails(await page('lastActiveTo=2025-07-05&limit=200')).sort()).toEqual(
      expected((f) => f.lastActive !== null && f.lastActive < '2025-07-06T00:00:00.000Z'),
    );
  });

  it('searches names by any word prefix, ignoring accents and case', async () => {
    expect(emails(await page('q=joao&limit=200')).sort()).toEqual(expected((f) => f.name.startsWith('João')));
    expect(emails(await page('q=CONCEI&limit=200')).sort()).toEqual(
      expected((f) => f.name.endsWith('Conceição')),
    );
    expect(emails(await page('q=ana%20sil&limit=200')).sort()).toEqual(
      expected((f) => f.name === 'Ana Silva'),
    );
    expect((await page('q=ilva')).total).toBe(0);
  });

  it('searches e-mail, phone, tax number, college number, share link and id', async () => {
    expect(emails(await page('q=pedro.3@list.test'))).toEqual(['pedro.3@list.test']);
    expect(emails(await page('q=pedro.3')).sort()).toEqual(['pedro.35@list.test', 'pedro.3@list.test']);
    const f = fixtures[11]!;
    const local = `${f.phone.slice(0, 3)} ${f.phone.slice(3, 6)} ${f.phone.slice(6)}`;
    expect(emails(await page(`q=${encodeURIComponent(local)}`))).toEqual([f.email]);
    expect(emails(await page(`q=${encodeURIComponent(`+351 ${f.phone}`)}`))).toEqual([f.email]);
    expect(emails(await page(`q=${f.tax}`))).toEqual([f.email]);
    const withCollege = fixtures[12]!;
    expect(emails(await page(`q=${withCollege.college}`))).toEqual([withCollege.email]);
    expect(emails(await page('q=dr-mar-link')).sort()).toEqual(
      expected((f) => f.shareLink?.startsWith('dr-mar-link') ?? false),
    );
    const [someId, someone] = [...ids][7]!;
    expect(emails(await page(`q=${someId}`))).toEqual([someone.email]);
    expect(emails(await page(`q=${someId.toUpperCase()}`))).toEqual([someone.email]);
  });

  it('combines q with filters', async () => {
    expect(emails(await page('q=silva&role=PROFESSIONAL&limit=200')).sort()).toEqual(
      expected((f) => f.name.endsWith('Silva') && f.role === 'PROFESSIONAL'),
    );
  });

  it.each([
    ['created', 'desc'],
    ['created', 'asc'],
    ['name', 'asc'],
    ['name', 'desc'],
    ['email', 'asc'],
    ['lastActive', 'desc'],
    ['lastActive', 'asc'],
  ] as const)('sorts by %s %s, ties broken by id, across pages', async (sort, order) => {
    const all: UserSummary[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const result: Page = await page(
        `role=CUSTOMER&sort=${sort}&order=${order}&limit=4${cursor ? `&cursor=${cursor}` : ''}`,
      );
      all.push(...result.items);
      cursor = result.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBeGreaterThan(3);
    const key = (u: UserSummary): string => {
      if (sort === 'created') return u.created;
      if (sort === 'lastActive') return u.lastActive ?? '';
      return (sort === 'name' ? u.name : u.email).toLowerCase();
    };
    const sorted = [...all].sort((a, b) => {
      const byKey = key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;
      const byId = a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
      return (order === 'asc' ? 1 : -1) * (byKey || byId);
    });
    expect(all.map((u) => u.id)).toEqual(sorted.map((u) => u.id));
    expect(new Set(all.map((u) => u.id)).size).toBe(all.length);
    expect(all.length).toBe(fixtures.filter((f) => f.role === 'CUSTOMER').length);
  });

  it('sorts never-active users last when newest activity comes first', async () => {
    const result = await page('sort=lastActive&order=desc&limit=200');
    const firstNull = result.items.findIndex((u) => u.lastActive === null);
    expect(firstNull).toBeGreaterThan(0);
    expect(result.items.slice(firstNull).every((u) => u.lastActive === null)).toBe(true);
  });

  it('neither repeats nor skips a row while users are inserted between pages', async () => {
    const before = new Set((await page('limit=200')).items.map((u) => u.id));
    const seen: string[] = [];
    let cursor: string | null = null;
    let n = 0;
    do {
      const result: Page = await page(`limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...result.items.map((u) => u.id));
      cursor = result.nextCursor;
      // new rows before, at and after the cursor position, including exact ties on created_at
      const last = result.items.at(-1);
      if (last) {
        const at = new Date(last.created).getTime();
        await Promise.all(
          [-86_400_000, 0, 0, 86_400_000].map((offset, i) =>
            db.query(
              `INSERT INTO users (role, email, name, created_at) VALUES ('CUSTOMER', $1, 'Concurrent', $2)`,
              [`concurrent-${n}-${i}@list.test`, new Date(at + offset).toISOString()],
            ),
          ),
        );
      }
      n++;
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    for (const id of before) expect(seen).toContain(id);
    await db.query(`DELETE FROM users WHERE email LIKE 'concurrent-%'`);
  });

  it.each([
    ['sort=password', 'sort'],
    ['order=sideways', 'order'],
    ['status=ACTIVE', 'status.0'],
    ['role=ROOT', 'role.0'],
    ['limit=0', 'limit'],
    ['limit=201', 'limit'],
    ['limit=ten', 'limit'],
    ['country=pt', 'country.0'],
    ['gender=other', 'gender.0'],
    ['areaOfInterest=cardio', 'areaOfInterest.0'],
    ['createdFrom=yesterday', 'createdFrom'],
    ['lastActiveTo=2025-13-40', 'lastActiveTo'],
  ])('rejects %s with 400 naming the field', async (query, field) => {
    const { status, body } = await get(query);
    expect(status).toBe(400);
    expect(body.code).toBe('VALIDATION_ERROR');
    expect((body as unknown as { errors: { field: string }[] }).errors.map((e) => e.field)).toContain(field);
  });

  it('rejects a malformed cursor with 400 INVALID_CURSOR', async () => {
    const { status, body } = await get('cursor=not-a-cursor');
    expect(status).toBe(400);
    expect(body.code).toBe('INVALID_CURSOR');
  });

  it('rejects a cursor issued for another sort', async () => {
    const first = await page('limit=2&sort=name');
    const { status, body } = await get(`limit=2&sort=email&cursor=${first.nextCursor}`);
    expect(status).toBe(400);
    expect(body.code).toBe('INVALID_CURSOR');
    const flipped = await get(`limit=2&sort=name&order=desc&cursor=${first.nextCursor}`);
    expect(flipped.status).toBe(400);
  });

  it('drops empty parameters as the console does', async () => {
    const result = await page('q=&status=&role=&limit=200');
    expect(result.total).toBe(fixtures.length + 1);
  });
});

describe.each(testDatabaseKinds())('GET /v2/admin/users totals at scale on $name', (kind) => {
  let db: Database;
  let api: RunningApi;
  let token: string;

  beforeAll(async () => {
    db = await kind.open();
    api = await startApi(db);
    token = await issueToken(db, await insertUser(db, { email: 'admin@total.test', admin: true }));
    await db.query(
      `INSERT INTO users (role, email, name, country, created_at)
       SELECT 'CUSTOMER', 'many' || n || '@total.test', 'Many ' || n, CASE WHEN n % 1000 = 0 THEN 'BR' ELSE 'PT' END,
              '2024-01-01T00:00:00Z'::timestamptz + n * interval '1 minute'
         FROM generate_series(1, 10500) n`,
    );
    await db.query('ANALYZE users');
  }, 120_000);
  afterAll(async () => {
    await api.stop();
    await db.close();
  });

  const get = async (query: string): Promise<Page> => {
    const response = await fetch(`${api.url}/v2/admin/users?${query}`, { headers: bearer(token) });
    expect(response.status).toBe(200);
    return (await response.json()) as Page;
  };

  it('answers an estimate above 10,000 matches and says so', async () => {
    const result = await get('role=CUSTOMER&limit=5');
    expect(result.totalEstimated).toBe(true);
    expect(result.total).toBeGreaterThan(10_000);
    expect(result.total).toBeLessThan(20_000);
  });

  /** Every page of `query`, following nextCursor. */
  const allPages = async (query: string) => {
    const pages: Page[] = [];
    let cursor: string | null = null;
    do {
      const result: Page = await get(`${query}${cursor ? `&cursor=${cursor}` : ''}`);
      pages.push(result);
      cursor = result.nextCursor;
    } while (cursor);
    return pages;
  };
  const idsInOrder = async (where: string, orderBy: string) =>
    (await db.query<{ id: string }>(`SELECT id FROM users u WHERE ${where} ORDER BY ${orderBy}`)).rows.map(
      (r) => r.id,
    );

  // `many 10` matches 612 users (Many 10, 100–109, 1000–1099, 10000–10500): few, so their page and count
  // come from one materialised set (fencedPage); page through it in both name orders and by creation.
  it.each([
    ['sort=name&order=asc', 'lower(u.name), u.id'],
    ['sort=name&order=desc', 'lower(u.name) DESC, u.id DESC'],
    ['sort=created', 'u.created_at DESC, u.id DESC'],
  ])('pages a two-word search exactly with %s', async (sort, orderBy) => {
    const pages = await allPages(`q=many%2010&limit=100&${sort}`);
    const seen = pages.flatMap((p) => p.items.map((u) => u.id));
    expect(seen).toEqual(await idsInOrder(`u.name ~ '^Many 10'`, orderBy));
    expect(seen).toHaveLength(612);
    expect(pages[0]!.total).toBe(612);
    expect(pages[0]!.totalEstimated).toBeUndefined();
  });

  // `many` matches 10,500 (estimated above 10,000): sorted by name the matches are still sorted from
  // one set, by creation the planner's ordered walk answers; both agree with SQL on the first pages.
  it.each([
    ['sort=name', 'lower(u.name), u.id'],
    ['sort=name&order=desc', 'lower(u.name) DESC, u.id DESC'],
    ['sort=created', 'u.created_at DESC, u.id DESC'],
  ])('pages a common prefix exactly with %s', async (sort, orderBy) => {
    const first = await get(`q=man&limit=150&${sort}`);
    const second = await get(`q=man&limit=150&${sort}&cursor=${first.nextCursor}`);
    const expectedIds = await idsInOrder(`u.name LIKE 'Many %'`, `${orderBy} LIMIT 300`);
    expect([...first.items, ...second.items].map((u) => u.id)).toEqual(expectedIds);
    expect(first.totalEstimated).toBe(true);
    expect(first.total).toBeGreaterThan(10_000);
  });

  it('counts exactly below the threshold', async () => {
    const result = await get('country=BR');
    expect(result.totalEstimated).toBeUndefined();
    expect(result.total).toBe(10);
  });
});

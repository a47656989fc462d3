import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userListQuerySchema } from '../../contract/users';
import type { Database, Queryable } from '../../server/db/client';
import { searchUsers } from '../../server/users/search';
import { parseSearch } from '../../server/users/search-grammar';
import type { UserSummary } from '../../server/users/summary';
import { testDatabaseKinds } from '../support/databases';
import { bearer, insertUser, issueToken, type RunningApi, startApi } from './harness';

// Migration 0013: exact prefix lexemes in users.search_words and the user_search_words range table
// must answer exactly what a word-prefix search over the user's words means.

const FIRST = ['Ana', 'Anabela', 'André', 'Bruno', 'Beatriz', 'Ana Anabela'];
const LAST = ['Andrade', 'Antunes Andrade', 'Batista', 'Brito', "D'Ávila"];

interface Person {
  id: string;
  name: string;
  email: string;
  role: 'CUSTOMER' | 'PROFESSIONAL';
}

const fold = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();
const wordsOf = (p: Person) => [
  ...fold(p.name).split(/[\s\-'.]+/),
  ...fold(p.name).split(/\s+/),
  ...p.email.split('@')[0]!.split(/[._+-]+/),
];

/** Every statement sent, so a test can tell which plan answered. */
function recording(db: Queryable): Queryable & { sql: string[] } {
  const sql: string[] = [];
  return {
    sql,
    query: (text: string, values?: unknown[]) => {
      sql.push(text);
      return db.query(text, values);
    },
  } as Queryable & { sql: string[] };
}

/** Rows of user_search_words that differ from what the users table says they should be. */
const DRIFT = `
  WITH derived AS (
    SELECT DISTINCT w AS word, u.id AS user_id, u.role, u.status, u.country, u.gender, u.created_at, lower(u.name) AS name_key, lower(u.email) AS email_key
      FROM users u, unnest(user_search_word_list(u.name, u.full_name, u.email, u.phone_number, u.phone_country_code,
                                                 u.tax_number, u.college_number, u.id_card_number, u.share_link_id)) AS w
     WHERE w ~ '^[a-z]')
  SELECT count(*)::int AS n FROM (
    (SELECT word, user_id, role, status, country, gender, created_at, name_key, email_key FROM user_search_words
     EXCEPT ALL SELECT * FROM derived)
    UNION ALL
    (SELECT * FROM derived
     EXCEPT ALL SELECT word, user_id, role, status, country, gender, created_at, name_key, email_key FROM user_search_words)
  ) d`;

describe.each(testDatabaseKinds())('users search words (0013) on $name', (kind) => {
  let db: Database;
  let api: RunningApi;
  let token: string;
  const people: Person[] = [];

  const page = async (query: string) => {
    const response = await fetch(`${api.url}/v2/admin/users?${query}`, { headers: bearer(token) });
    const body = (await response.json()) as {
      items: UserSummary[];
      nextCursor: string | null;
      total: number;
    };
    expect(response.status, JSON.stringify(body)).toBe(200);
    return body;
  };
  const drift = async () => (await db.query<{ n: number }>(DRIFT)).rows[0]!.n;

  beforeAll(async () => {
    db = await kind.open();
    api = await startApi(db);
    const adminId = await insertUser(db, { email: 'admin@words.test', admin: true, role: 'ADMIN' });
    token = await issueToken(db, adminId);
    for (let i = 0; i < 36; i++) {
      const person = {
        name: `${FIRST[i % FIRST.length]} ${LAST[i % LAST.length]}`,
        email: `u${i}@words.test`,
        role: i % 3 === 0 ? 'PROFESSIONAL' : 'CUSTOMER',
      } as const;
      const { rows } = await db.query<{ id: string }>(
        `INSERT INTO users (role, email, name, full_name, email_verified, disabled, country, gender, created_at)
         VALUES ($1, $2, $3, $3, $4, $5, $6, $7, now() - $8 * interval '1 hour') RETURNING id`,
        [
          person.role,
          person.email,
          person.name,
          i % 4 !== 0,
          i % 5 === 0,
          i % 3 === 1 ? 'BR' : 'PT',
          i % 2 ? 'male' : 'female',
          i,
        ],
      );
      people.push({ id: rows[0]!.id, ...person });
    }
  });
  afterAll(async () => {
    await api.stop();
    await db.close();
  });

  it('holds exactly the letter-led words of every user after inserts', async () => {
    expect(await drift()).toBe(0);
    const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM user_search_words');
    expect(rows[0]!.n).toBeGreaterThan(people.length * 3);
  });

  it.each([
    ['an', 'name', 'asc', ''],
    ['an', 'name', 'desc', '&role=CUSTOMER'],
    ['andr', 'email', 'asc', '&status=EMAIL_VERIFIED&status=DISABLED'],
    ['b', 'name', 'asc', '&role=PROFESSIONAL'],
    ['u1', 'email', 'desc', ''],
    ['avila', 'name', 'asc', ''],
    ['antunes', 'name', 'desc', '&role=CUSTOMER&status=EMAIL_VERIFIED'],
    ['an', 'email', 'asc', '&country=BR&gender=female'],
    ['bea', 'name', 'desc', '&country=PT&country=BR&gender=female'],
    ['an', 'name', 'asc', '&role=CUSTOMER&createdFrom={from}&createdTo={to}'],
  ])(
    'q=%s sorted by %s %s%s pages through every match once, in the table order',
    async (q, sort, order, template) => {
      // {from} and {to}: instants 20 and 5 hours before the newest fixture (one is created an hour apart).
      const { rows: window } = await db.query<{ from: Date; to: Date }>(
        `SELECT max(created_at) - interval '20 hours' AS from, max(created_at) - interval '5 hours' AS to
           FROM users WHERE email LIKE '%@words.test'`,
      );
      const filters = template
        .replace('{from}', encodeURIComponent(window[0]!.from.toISOString()))
        .replace('{to}', encodeURIComponent(window[0]!.to.toISOString()));
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const result: Awaited<ReturnType<typeof page>> = await page(
          `q=${q}&sort=${sort}&order=${order}&limit=2${filters}${cursor ? `&cursor=${cursor}` : ''}`,
        );
        seen.push(...result.items.map((u) => u.id));
        cursor = result.nextCursor;
      } while (cursor);
      const params = new URLSearchParams(filters);
      const anyOf = (column: string, n: number) =>
        `(cardinality($${n}::text[]) = 0 OR ${column} = ANY($${n}))`;
      const { rows } = await db.query<{ id: string }>(
        `SELECT id FROM users WHERE id = ANY($1::uuid[]) AND ${anyOf('role', 2)} AND ${anyOf('status', 3)}
            AND ${anyOf('country', 4)} AND ${anyOf('gender', 5)}
            AND created_at >= coalesce($6::timestamptz, '-infinity') AND created_at <= coalesce($7::timestamptz, 'infinity')
          ORDER BY lower(${sort}) ${order}, id ${order}`,
        [
          people.filter((p) => wordsOf(p).some((w) => w.startsWith(q))).map((p) => p.id),
          ...['role', 'status', 'country', 'gender'].map((name) => params.getAll(name)),
          params.get('createdFrom'),
          params.get('createdTo'),
        ],
      );
      expect(rows.length).toBeGreaterThan(0);
      expect(seen).toEqual(rows.map((r) => r.id));
    },
  );

  it('answers a one-word name sort from user_search_words, once per user with several words in range', async () => {
    const spy = recording(db);
    // "Ana Anabela Antunes Andrade": four words starting with "an"; a page of one needs more rows.
    const result = await searchUsers(spy, userListQuerySchema.parse({ q: 'an', sort: 'name', limit: '1' }));
    expect(spy.sql.some((sql) => sql.includes('FROM user_search_words'))).toBe(true);
    expect(result.items).toHaveLength(1);
    const dated = recording(db);
    await searchUsers(
      dated,
      userListQuerySchema.parse({ q: 'an', sort: 'email', createdFrom: '2020-01-01' }),
    );
    expect(dated.sql.some((sql) => sql.includes('FROM user_search_words'))).toBe(true);
    const all = await searchUsers(db, userListQuerySchema.parse({ q: 'an', sort: 'name', limit: '200' }));
    expect(new Set(all.items.map((u) => u.id)).size).toBe(all.items.length);
    expect(all.total).toBe(people.filter((p) => wordsOf(p).some((w) => w.startsWith('an'))).length);
  });

  it('follows renames, e-mail changes, status changes and deletions', async () => {
    const [renamed, emailed, disabled, removed] = people.filter((p) => p.role === 'CUSTOMER');
    await db.query(
      `UPDATE users SET name = 'Zacarias Zulmiro', full_name = 'Zacarias Zulmiro' WHERE id = $1`,
      [renamed!.id],
    );
    await db.query(`UPDATE users SET email = 'xavier.quintas@words.test' WHERE id = $1`, [emailed!.id]);
    const response = await fetch(`${api.url}/v2/admin/users/${disabled!.id}/disable`, {
      method: 'POST',
      headers: { ...bearer(token), 'content-type': 'application/json' },
      body: JSON.stringify({ disabled: true }),
    });
    expect(response.status).toBe(200);
    await db.query('DELETE FROM users WHERE id = $1', [removed!.id]);
    // a change the table does not hold (activity) leaves it alone
    await db.query(`UPDATE users SET last_active_at = now()`);
    expect(await drift()).toBe(0);

    expect((await page('q=zacar&sort=name')).items.map((u) => u.id)).toEqual([renamed!.id]);
    expect((await page('q=xavier&sort=email')).items.map((u) => u.id)).toEqual([emailed!.id]);
    const disabledOnes = await page('q=u&sort=name&status=DISABLED&limit=200');
    expect(disabledOnes.items.map((u) => u.id)).toContain(disabled!.id);
    expect((await page(`q=${removed!.email.split('@')[0]}&sort=name`)).items).toEqual([]);
  });

  it('finds a typed word exactly when some indexed word starts with it (property)', async () => {
    const letters = fc.constantFrom('a', 'b', 'n', 'z', '1', '7', 'ł', '-');
    const word = fc.string({ unit: letters, minLength: 1, maxLength: 11 });
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(word, { minLength: 1, maxLength: 4 }), word, async (words, typed) => {
        const search = parseSearch(typed);
        if (!search || !('tsquery' in search)) return;
        const { rows } = await db.query<{ hit: boolean }>(
          'SELECT array_to_tsvector(search_word_prefixes($1::text[])) @@ $2::tsquery AS hit',
          [words, search.tsquery],
        );
        const digitsOnly = /^\+?[\d\s().-]+$/.test(typed);
        const wanted = digitsOnly ? typed.replace(/\D/g, '') : typed;
        expect(rows[0]!.hit).toBe(words.some((w) => w.startsWith(wanted)));
      }),
      // found once: a word's whole leading run of letters (`nba` of `nba1`) was left out
      { numRuns: 300, examples: [[['nba1', 'a'], 'nba']] },
    );
  });
});

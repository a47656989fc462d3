import { z } from 'zod';
import type { Queryable } from '../db/client';
import { dateOrInstant } from '../http/bounds';
import { decodeCursor, encodeCursor, SORT_KEY_SCHEMAS } from '../http/cursor';
import { roleSchema, userStatusSchema } from './profiles';
import { SUMMARY_COLUMNS, type SummaryRow, toUserSummary, type UserSummary } from './users-summary';

/** Counted exactly up to here; above it the planner's estimate answers (`totalEstimated: true`). */
export const EXACT_TOTAL_LIMIT = 10_000;
export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;
const MAX_QUERY_WORDS = 8;
const MIN_SELECTIVE_DIGITS = 4;
const MAX_SEARCH_IDS = 5000;

// Each sortable column and the SQL it orders by; the expressions match the keyset indexes of 0010.
const SORTS = {
  created: { sql: 'u.created_at', type: 'timestamptz', defaultOrder: 'desc' },
  lastActive: {
    sql: "coalesce(u.last_active_at, '-infinity'::timestamptz)",
    type: 'timestamptz',
    defaultOrder: 'desc',
  },
  name: { sql: 'lower(u.name)', type: 'text', defaultOrder: 'asc' },
  email: { sql: 'lower(u.email)', type: 'text', defaultOrder: 'asc' },
} as const;
export type UserSort = keyof typeof SORTS;
export const USER_SORTS = Object.keys(SORTS) as [UserSort, ...UserSort[]];

/** The console drops empty filters; a hand-written `?q=&status=` means the same as omitting them. */
function dropEmpty(query: unknown): unknown {
  if (query === null || typeof query !== 'object') return query;
  const entries = Object.entries(query as Record<string, unknown>)
    .map(([key, value]) => [key, Array.isArray(value) ? value.filter((v) => v !== '') : value] as const)
    .filter(([, value]) => value !== '' && !(Array.isArray(value) && value.length === 0));
  return Object.fromEntries(entries);
}

const repeatable = <T extends z.ZodType>(item: T) =>
  z.preprocess((value) => (typeof value === 'string' ? [value] : value), z.array(item).max(20)).optional();

const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** `YYYY-MM-DD` is a whole day in Europe/Lisbon (the operators' calendar); a full ISO time is an instant. */
const timeBound = dateOrInstant().optional();

export const userListQuerySchema = z.preprocess(
  dropEmpty,
  z.object({
    q: z.string().trim().max(120).optional(),
    role: repeatable(roleSchema),
    status: repeatable(userStatusSchema),
    country: repeatable(z.string().regex(/^[A-Z]{2}$/)),
    gender: repeatable(z.enum(['male', 'female'])),
    areaOfInterest: repeatable(z.guid()),
    createdFrom: timeBound,
    createdTo: timeBound,
    lastActiveFrom: timeBound,
    lastActiveTo: timeBound,
    sort: z.enum(USER_SORTS).default('created'),
    order: z.enum(['asc', 'desc']).optional(),
    limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
    cursor: z.string().max(600).optional(),
  }),
);
export type UserListQuery = z.output<typeof userListQuerySchema>;

export interface UserPage {
  items: UserSummary[];
  nextCursor: string | null;
  total: number;
  totalEstimated?: true;
}

class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * `q` as words of the search index (migration 0010): each word must be the prefix of some indexed
 * word. A number typed with spaces or a `+` (a phone) becomes one run of digits; an id matches by id.
 */
export type Search =
  | { id: string }
  | { ids: string[] }
  | { emailPrefix: string }
  | { tsquery: string; digits: boolean; word?: string };

/** Migration 0013 indexes the 2–8 letter prefixes of each word's leading letters as lexemes of their own. */
const EXACT_PREFIX = /^[a-z]{2,8}$/;
/** A word user_search_words can answer: it holds every word that starts with a letter. */
const LETTER_LED_WORD = /^[a-z][a-z0-9]*$/;

const quoteLexeme = (word: string) => `'${word.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

export function parseSearch(q: string): Search | null {
  const text = q.trim();
  if (text === '') return null;
  if (GUID.test(text)) return { id: text.toLowerCase() };
  // One token with e-mail punctuation: a prefix of the address, through its btree index (0002).
  if (/^\S*[@._+]\S*$/.test(text) && !/^\+?[\d().-]+$/.test(text))
    return { emailPrefix: `${text.toLowerCase().replace(/[\\%_]/g, '\\$&')}%` };
  const folded = text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();
  const digits = /^\+?[\d\s().-]+$/.test(folded);
  const words = digits ? [folded.replace(/\D/g, '')] : folded.split(/\s+/).slice(0, MAX_QUERY_WORDS);
  const typed = words.filter((word) => word !== '');
  if (typed.length === 0) return null;
  // An exact lexeme is one posting list; a prefix (`:*`) merges every list that starts with it.
  const tsquery = typed
    .map((word) => (EXACT_PREFIX.test(word) ? quoteLexeme(word) : `${quoteLexeme(word)}:*`))
    .join(' & ');
  const word = typed.length === 1 && !digits && LETTER_LED_WORD.test(typed[0]!) ? typed[0] : undefined;
  return {
    tsquery,
    digits: digits && typed[0]!.length >= MIN_SELECTIVE_DIGITS,
    ...(word === undefined ? {} : { word }),
  };
}

/**
 * A run of digits (phone, tax or college number) matches a handful of users, but the planner cannot
 * know it (a prefix outside the most common words gets a default estimate) and may walk the whole
 * created_at index looking for 50 matches: 2 s at 1,000,000 users. Fetching the few ids through the GIN
 * index first, then paging over them, keeps it at a few ms.
 */
async function resolveSearch(db: Queryable, search: Search | null): Promise<Search | null> {
  if (!search || !('digits' in search) || !search.digits) return search;
  const { rows } = await db.query<{ id: string }>('SELECT id FROM users WHERE search_words @@ $1::tsquery', [
    search.tsquery,
  ]);
  return rows.length <= MAX_SEARCH_IDS ? { ids: rows.map((row) => row.id) } : search;
}

function dayStart(params: Params, day: string, offsetDays: number): string {
  return `((${params.add(day)}::date + ${offsetDays})::timestamp AT TIME ZONE 'Europe/Lisbon')`;
}

function rangeFilters(params: Params, column: string, from?: string, to?: string): string[] {
  const where: string[] = [];
  if (from)
    where.push(
      `${column} >= ${DAY.test(from) ? dayStart(params, from, 0) : `${params.add(from)}::timestamptz`}`,
    );
  if (to)
    where.push(
      DAY.test(to) ? `${column} < ${dayStart(params, to, 1)}` : `${column} <= ${params.add(to)}::timestamptz`,
    );
  return where;
}

/** One `=` instead of `= ANY` for a single value keeps the (role, status, created_at, id) index ordered. */
function oneOf(params: Params, column: string, values: readonly string[] | undefined, type = 'text') {
  if (!values) return [];
  return values.length === 1
    ? [`${column} = ${params.add(values[0])}::${type}`]
    : [`${column} = ANY(${params.add(values)}::${type}[])`];
}

function filters(params: Params, query: UserListQuery, search: Search | null): string[] {
  const where = [
    ...oneOf(params, 'u.role', query.role),
    ...oneOf(params, 'u.status', query.status),
    ...oneOf(params, 'u.country', query.country),
    ...oneOf(params, 'u.gender', query.gender),
    ...rangeFilters(params, 'u.created_at', query.createdFrom, query.createdTo),
    ...rangeFilters(params, 'u.last_active_at', query.lastActiveFrom, query.lastActiveTo),
  ];
  if (query.areaOfInterest)
    where.push(
      `EXISTS (SELECT 1 FROM professional_interest_areas pia
                WHERE pia.professional_id = u.id AND pia.area_id = ANY(${params.add(query.areaOfInterest)}::uuid[]))`,
    );
  if (search && 'ids' in search) where.push(`u.id = ANY(${params.add(search.ids)}::uuid[])`);
  if (search && 'id' in search) where.push(`u.id = ${params.add(search.id)}::uuid`);
  if (search && 'emailPrefix' in search) where.push(`lower(u.email) LIKE ${params.add(search.emailPrefix)}`);
  if (search && 'tsquery' in search) where.push(`u.search_words @@ ${params.add(search.tsquery)}::tsquery`);
  return where;
}

type Cursor = [UserSort, 'asc' | 'desc', string, string];

/**
 * Opaque to clients; bound to the sort it was issued for, so changing the sort needs a fresh start, and
 * its key must cast to that sort's SQL type.
 */
function decodeUserCursor(cursor: string, sort: UserSort, order: 'asc' | 'desc'): Cursor {
  const schema = z.tuple([z.literal(sort), z.literal(order), SORT_KEY_SCHEMAS[SORTS[sort].type], z.guid()]);
  return decodeCursor(schema, cursor);
}

const whereClause = (where: string[]) => (where.length ? `WHERE ${where.join(' AND ')}` : '');

export async function searchUsers(db: Queryable, query: UserListQuery): Promise<UserPage> {
  const sort = SORTS[query.sort];
  const order = query.order ?? sort.defaultOrder;
  const cursor = query.cursor ? decodeUserCursor(query.cursor, query.sort, order) : null;
  const search = await resolveSearch(db, query.q ? parseSearch(query.q) : null);
  const countParams = new Params();
  const countWhere = filters(countParams, query, search);
  // Only a text search waits for the estimate to choose its plan; the others plan their page meanwhile.
  const estimating = estimateRows(db, countWhere, countParams.values);
  // Other queries run before it is awaited; should it fail meanwhile, that is not an unhandled
  // rejection (which ends the process): the awaits below still receive the failure.
  estimating.catch(() => undefined);
  const fenced =
    (await wordRangePage(db, query, search, cursor, estimating)) ??
    (await fencedSearchPage(db, query, search, cursor, estimating));
  const pageParams = new Params();
  const where = filters(pageParams, query, search);
  if (cursor && !fenced) {
    const [, , value, id] = cursor;
    // Row comparison on (sort value, id): rows inserted meanwhile land before or after the cursor,
    // never shifting the rest, so no row is repeated or skipped.
    where.push(
      `(${sort.sql}, u.id) ${order === 'desc' ? '<' : '>'} (${pageParams.add(value)}::${sort.type}, ${pageParams.add(id)}::uuid)`,
    );
  }
  const [rows, total] = fenced
    ? [fenced.rows, fenced.total]
    : await Promise.all([
        db
          .query<SummaryRow & { sort_value: string }>(
            `SELECT ${SUMMARY_COLUMNS}, (${sort.sql})::text AS sort_value FROM users u ${whereClause(where)}
              ORDER BY ${sort.sql} ${order}, u.id ${order} LIMIT ${pageParams.add(query.limit + 1)}`,
            pageParams.values,
          )
          .then((result) => result.rows),
        // No `await` among these arguments: one that threw would leave the page query above unhandled.
        estimating.then((estimate) => countUsers(db, countWhere, countParams.values, estimate)),
      ]);
  const items = rows.slice(0, query.limit);
  const last = items.at(-1);
  const nextCursor =
    rows.length > query.limit && last ? encodeCursor([query.sort, order, last.sort_value, last.id]) : null;
  const areas = await areasOf(
    db,
    items.filter((row) => row.role === 'PROFESSIONAL').map((row) => row.id),
  );
  // A first page that holds every match is its own exact count, whatever the estimate said.
  const complete = !query.cursor && nextCursor === null;
  return {
    items: items.map((row) => toUserSummary(row, areas.get(row.id) ?? [])),
    nextCursor,
    ...(complete ? { total: items.length } : total),
  };
}

type Total = { total: number; totalEstimated?: true };

/** Above this many estimated matches a name sort walks the name index instead (see fenceMatches). */
const NAME_FENCE_LIMIT = 50_000;

/** An e-mail prefix read once through its btree if it matches at most this many users. */
const EMAIL_FENCE_LIMIT = 2000;

/**
 * Searches whose matches are few enough are better read once through their index (GIN for words, the
 * btree for an e-mail prefix), then sorted and counted from that one set (fencedPage), than by the
 * ordered plans. Answers the most matches to read that way (Infinity: all), or null for the plain plan:
 * - up to EXACT_TOTAL_LIMIT estimated word matches the page and the exact count each paid the GIN scan
 *   (`joana mart` at 1,000,000 users: two prefix scans of 30–60 ms, for the page and the count);
 * - sorted by name (when wordRangePage cannot answer: several words, or date and area filters), a name
 *   prefix matches mostly first names, which cluster in name order: the planner,
 *   assuming matches spread evenly, walks the name index and filters, 300,000–600,000 rows (1–2 s)
 *   before the first "Joa…". Sorting the ~20,000–50,000 matches costs 100–250 ms and grows with them,
 *   so a prefix common enough that NAME_FENCE_LIMIT is passed (it also matches surnames spread over
 *   the whole alphabet, found at once in name order) keeps the walk;
 * - an e-mail prefix is usually one person or a few, but its estimate is coarse (10,101 for the 931
 *   `joana.martin…`), and the plain plan then walked the created_at index (200 ms); more than
 *   EMAIL_FENCE_LIMIT matches (`ana.`, ~40 ms to find out) fall back to the plain plan.
 * Other sorts (created, last active, e-mail) are independent of the words, so their ordered walk meets
 * 50 matches early. The estimate is the planner's (migration 0012 keeps word statistics).
 */
const isTextSearch = (search: Search | null) => !!search && ('tsquery' in search || 'emailPrefix' in search);

function fenceLimit(search: Search | null, sort: UserSort, estimate: number): number | null {
  if (search && 'emailPrefix' in search) return EMAIL_FENCE_LIMIT;
  if (!search || !('tsquery' in search)) return null;
  return estimate <= EXACT_TOTAL_LIMIT || (sort === 'name' && estimate <= NAME_FENCE_LIMIT) ? Infinity : null;
}

async function fencedSearchPage(
  db: Queryable,
  query: UserListQuery,
  search: Search | null,
  cursor: Cursor | null,
  estimating: Promise<number>,
) {
  if (!isTextSearch(search)) return null;
  const estimate = await estimating;
  const fence = fenceLimit(search, query.sort, estimate);
  return fence === null ? null : fencedPage(db, query, search, cursor, estimate, fence);
}

/** Past this many estimated matches a name or e-mail sort walks its index (found at once) instead. */
const WORD_RANGE_LIMIT = 150_000;

/** The user_search_words column that holds each sort's key (0013); the other sorts don't need it. */
const WORD_RANGE_KEYS: Partial<Record<UserSort, string>> = { name: 'name_key', email: 'email_key' };

/**
 * One letter-led word sorted by name or e-mail, filtered by role, status, country, gender or creation
 * date: its matches are ranges of user_search_words' (role, word) index, which carries the sort keys,
 * so they are read index-only and the page is a top-N sort (`joa`, 40,000 customers: ~25 ms instead of
 * a heap page per match). A user with several words in the range comes back once per word: rows are fetched in
 * (key, id) order until the page has enough distinct users.
 */
async function wordRangePage(
  db: Queryable,
  query: UserListQuery,
  search: Search | null,
  cursor: Cursor | null,
  estimating: Promise<number>,
): Promise<{ rows: (SummaryRow & { sort_value: string })[]; total: Total } | null> {
  const key = WORD_RANGE_KEYS[query.sort];
  const word = search && 'word' in search ? search.word : undefined;
  const otherFilters = query.areaOfInterest || query.lastActiveFrom || query.lastActiveTo;
  if (!key || !word || otherFilters) return null;
  const estimate = await estimating;
  if (estimate > WORD_RANGE_LIMIT) return null;
  const order = query.order ?? SORTS[query.sort].defaultOrder;
  const params = new Params();
  const matching = [
    `s.word LIKE ${params.add(`${word}%`)}`,
    ...oneOf(params, 's.role', query.role ?? roleSchema.options),
    ...oneOf(params, 's.status', query.status),
    ...oneOf(params, 's.country', query.country),
    ...oneOf(params, 's.gender', query.gender),
    ...rangeFilters(params, 's.created_at', query.createdFrom, query.createdTo),
  ];
  const counting: Promise<Total> =
    estimate > EXACT_TOTAL_LIMIT
      ? Promise.resolve({ total: estimate, totalEstimated: true })
      : db
          .query<{ n: number }>(
            `SELECT count(DISTINCT s.user_id)::int AS n FROM user_search_words s WHERE ${matching.join(' AND ')}`,
            [...params.values],
          )
          .then((result) => ({ total: result.rows[0]!.n }));
  const where = [...matching];
  if (cursor) {
    const [, , value, id] = cursor;
    where.push(
      `(s.${key}, s.user_id) ${order === 'desc' ? '<' : '>'} (${params.add(value)}::text, ${params.add(id)}::uuid)`,
    );
  }
  const pageSize = query.limit + 1;
  const [rows, total] = await Promise.all([distinctPage(), counting]);
  return { rows, total };

  async function distinctPage() {
    for (let fetch = pageSize * 2; ; fetch *= 4) {
      const { rows } = await db.query<SummaryRow & { sort_value: string; fetched: number }>(
        `WITH r AS (SELECT s.user_id, s.${key} AS k FROM user_search_words s WHERE ${where.join(' AND ')}
                   ORDER BY s.${key} ${order}, s.user_id ${order} LIMIT ${fetch}),
            p AS (SELECT DISTINCT r.user_id, r.k FROM r ORDER BY r.k ${order}, r.user_id ${order} LIMIT ${pageSize})
       SELECT f.fetched, ${SUMMARY_COLUMNS}, p.k::text AS sort_value
         FROM (SELECT count(*)::int AS fetched FROM r) f LEFT JOIN p ON true LEFT JOIN users u ON u.id = p.user_id
        ORDER BY p.k ${order}, p.user_id ${order}`,
        params.values,
      );
      const page = rows.filter((row) => row.id !== null);
      if (page.length === pageSize || (rows[0]?.fetched ?? 0) < fetch) return page;
    }
  }
}

/**
 * One statement: the matches (id and sort key only) are materialised, so the planner cannot turn the
 * ORDER BY … LIMIT back into an ordered index walk; they are counted, the page is sorted from them, and
 * only the page's rows are read whole; null if more than `limit` match. The keyset cursor compares the
 * same (sort key, id) as the plain plan.
 */
async function fencedPage(
  db: Queryable,
  query: UserListQuery,
  search: Search | null,
  cursor: Cursor | null,
  estimate: number,
  limit: number,
): Promise<{ rows: (SummaryRow & { sort_value: string })[]; total: Total } | null> {
  const sort = SORTS[query.sort];
  const order = query.order ?? sort.defaultOrder;
  const params = new Params();
  const where = filters(params, query, search);
  let after = '';
  if (cursor) {
    const [, , value, id] = cursor;
    after = `WHERE (m.k, m.id) ${order === 'desc' ? '<' : '>'} (${params.add(value)}::${sort.type}, ${params.add(id)}::uuid)`;
  }
  const { rows } = await db.query<SummaryRow & { sort_value: string; match_count: number }>(
    `WITH m AS MATERIALIZED (SELECT u.id, ${sort.sql} AS k FROM users u ${whereClause(where)}
                             ${Number.isFinite(limit) ? `LIMIT ${limit + 1}` : ''}),
          n AS (SELECT count(*)::int AS match_count FROM m),
          p AS (SELECT m.id, m.k FROM m ${after} ORDER BY m.k ${order}, m.id ${order} LIMIT ${params.add(query.limit + 1)})
     SELECT n.match_count, ${SUMMARY_COLUMNS}, p.k::text AS sort_value
       FROM n LEFT JOIN p ON true LEFT JOIN users u ON u.id = p.id
      ORDER BY p.k ${order}, p.id ${order}`,
    params.values,
  );
  const matches = rows[0]?.match_count ?? 0;
  if (matches > limit) return null;
  return {
    rows: rows.filter((row) => row.id !== null),
    total:
      matches <= EXACT_TOTAL_LIMIT
        ? { total: matches }
        : { total: Math.max(EXACT_TOTAL_LIMIT + 1, estimate), totalEstimated: true },
  };
}

/** The planner's row estimate for the filters: an EXPLAIN, well under a millisecond. */
async function estimateRows(db: Queryable, where: string[], values: unknown[]): Promise<number> {
  const plan = await db.query<{ 'QUERY PLAN': unknown }>(
    `EXPLAIN (FORMAT JSON) SELECT 1 FROM users u ${whereClause(where)}`,
    values,
  );
  const raw = plan.rows[0]!['QUERY PLAN'];
  const json = (typeof raw === 'string' ? JSON.parse(raw) : raw) as [{ Plan: { 'Plan Rows': number } }];
  return Math.round(json[0].Plan['Plan Rows']);
}

/**
 * The planner's estimate first: above the threshold it is the answer, since counting 10,001 sparse
 * matches can walk most of the table. Below it, a count capped at the threshold.
 */
async function countUsers(
  db: Queryable,
  where: string[],
  values: unknown[],
  estimate: number,
): Promise<Total> {
  if (estimate > EXACT_TOTAL_LIMIT) return { total: estimate, totalEstimated: true };
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM (SELECT 1 FROM users u ${whereClause(where)} LIMIT ${EXACT_TOTAL_LIMIT + 1}) capped`,
    values,
  );
  const exact = rows[0]!.n;
  if (exact <= EXACT_TOTAL_LIMIT) return { total: exact };
  return { total: Math.max(EXACT_TOTAL_LIMIT + 1, estimate), totalEstimated: true };
}

export async function areasOf(
  db: Queryable,
  professionalIds: string[],
): Promise<Map<string, UserSummary['areasOfInterest']>> {
  const byUser = new Map<string, UserSummary['areasOfInterest']>();
  if (professionalIds.length === 0) return byUser;
  const { rows } = await db.query<{ professional_id: string; id: string; name: string }>(
    `SELECT pia.professional_id, a.id, a.name FROM professional_interest_areas pia
       JOIN interest_areas a ON a.id = pia.area_id
      WHERE pia.professional_id = ANY($1::uuid[]) ORDER BY a.name`,
    [professionalIds],
  );
  for (const row of rows) {
    const list = byUser.get(row.professional_id) ?? [];
    list.push({ id: row.id, name: row.name });
    byUser.set(row.professional_id, list);
  }
  return byUser;
}

import { ROLES } from '../../contract/statuses';
import type { Queryable } from '../db/client';
import {
  dateRange,
  estimatedAbove,
  type KeysetPosition,
  oneOf,
  SqlParams,
  type Total,
  whereClause,
} from '../db/list';
import { USER_SORT_COLUMNS, USERS_FROM, type UserListQuery, userFilters } from './search-filters';
import { isTextSearch, type Search } from './search-grammar';
import { SUMMARY_COLUMNS, type SummaryRow } from './summary';

/**
 * The two special plans of the user search (docs/decisions/0042, 0043), each answering a page and its
 * total in one go, or null when the plain keyset plan (search.ts) should answer instead.
 */

/** Counted exactly up to here; above it the planner's estimate answers (`totalEstimated: true`). */
export const EXACT_TOTAL_LIMIT = 10_000;

export type PlanRow = SummaryRow & { sort_key: string };
export interface PlannedPage {
  rows: PlanRow[];
  total: Total;
}

/** Above this many estimated matches a name sort walks the name index instead (see fenceLimit). */
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
function fenceLimit(search: Search | null, sort: UserListQuery['sort'], estimate: number): number | null {
  if (search && 'emailPrefix' in search) return EMAIL_FENCE_LIMIT;
  if (!search || !('tsquery' in search)) return null;
  return estimate <= EXACT_TOTAL_LIMIT || (sort === 'name' && estimate <= NAME_FENCE_LIMIT) ? Infinity : null;
}

export async function fencedSearchPage(
  db: Queryable,
  query: UserListQuery,
  search: Search | null,
  cursor: KeysetPosition | null,
  estimating: Promise<number>,
): Promise<PlannedPage | null> {
  if (!isTextSearch(search)) return null;
  const estimate = await estimating;
  const fence = fenceLimit(search, query.sort, estimate);
  return fence === null ? null : fencedPage(db, query, search, cursor, estimate, fence);
}

/** Past this many estimated matches a name or e-mail sort walks its index (found at once) instead. */
const WORD_RANGE_LIMIT = 150_000;

/** The user_search_words column that holds each sort's key (0013); the other sorts don't need it. */
const WORD_RANGE_KEYS: Partial<Record<UserListQuery['sort'], string>> = {
  name: 'name_key',
  email: 'email_key',
};

/**
 * One letter-led word sorted by name or e-mail, filtered by role, status, country, gender or creation
 * date: its matches are ranges of user_search_words' (role, word) index, which carries the sort keys,
 * so they are read index-only and the page is a top-N sort (`joa`, 40,000 customers: ~25 ms instead of
 * a heap page per match). A user with several words in the range comes back once per word: rows are fetched in
 * (key, id) order until the page has enough distinct users.
 */
export async function wordRangePage(
  db: Queryable,
  query: UserListQuery,
  search: Search | null,
  cursor: KeysetPosition | null,
  estimating: Promise<number>,
): Promise<PlannedPage | null> {
  const key = WORD_RANGE_KEYS[query.sort];
  const word = search && 'word' in search ? search.word : undefined;
  const otherFilters = query.areaOfInterest || query.lastActiveFrom || query.lastActiveTo;
  if (!key || !word || otherFilters) return null;
  const estimate = await estimating;
  if (estimate > WORD_RANGE_LIMIT) return null;
  const order = query.order ?? USER_SORT_COLUMNS[query.sort].defaultOrder;
  const params = new SqlParams();
  const matching = [
    `s.word LIKE ${params.add(`${word}%`)}`,
    ...oneOf(params, 's.role', query.role ?? ROLES),
    ...oneOf(params, 's.status', query.status),
    ...oneOf(params, 's.country', query.country),
    ...oneOf(params, 's.gender', query.gender),
    ...dateRange(params, 's.created_at', query.createdFrom, query.createdTo),
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
  if (cursor)
    where.push(
      `(s.${key}, s.user_id) ${order === 'desc' ? '<' : '>'} (${params.add(cursor.key)}::text, ${params.add(cursor.id)}::uuid)`,
    );
  const pageSize = query.limit + 1;
  const [rows, total] = await Promise.all([distinctPage(), counting]);
  return { rows, total };

  async function distinctPage() {
    for (let fetch = pageSize * 2; ; fetch *= 4) {
      const { rows } = await db.query<PlanRow & { fetched: number }>(
        `WITH r AS (SELECT s.user_id, s.${key} AS k FROM user_search_words s WHERE ${where.join(' AND ')}
                   ORDER BY s.${key} ${order}, s.user_id ${order} LIMIT ${fetch}),
            p AS (SELECT DISTINCT r.user_id, r.k FROM r ORDER BY r.k ${order}, r.user_id ${order} LIMIT ${pageSize})
       SELECT f.fetched, ${SUMMARY_COLUMNS}, p.k::text AS sort_key
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
  cursor: KeysetPosition | null,
  estimate: number,
  limit: number,
): Promise<PlannedPage | null> {
  const sort = USER_SORT_COLUMNS[query.sort];
  const order = query.order ?? sort.defaultOrder;
  const params = new SqlParams();
  const where = userFilters(params, query, search);
  let after = '';
  if (cursor)
    after = `WHERE (m.k, m.id) ${order === 'desc' ? '<' : '>'} (${params.add(cursor.key)}::${sort.type}, ${params.add(cursor.id)}::uuid)`;
  const { rows } = await db.query<PlanRow & { match_count: number }>(
    `WITH m AS MATERIALIZED (SELECT u.id, ${sort.sql} AS k ${USERS_FROM} ${whereClause(where)}
                             ${Number.isFinite(limit) ? `LIMIT ${limit + 1}` : ''}),
          n AS (SELECT count(*)::int AS match_count FROM m),
          p AS (SELECT m.id, m.k FROM m ${after} ORDER BY m.k ${order}, m.id ${order} LIMIT ${params.add(query.limit + 1)})
     SELECT n.match_count, ${SUMMARY_COLUMNS}, p.k::text AS sort_key
       FROM n LEFT JOIN p ON true LEFT JOIN users u ON u.id = p.id
      ORDER BY p.k ${order}, p.id ${order}`,
    params.values,
  );
  const matches = rows[0]?.match_count ?? 0;
  if (matches > limit) return null;
  return {
    rows: rows.filter((row) => row.id !== null),
    total: matches <= EXACT_TOTAL_LIMIT ? { total: matches } : estimatedAbove(EXACT_TOTAL_LIMIT, estimate),
  };
}

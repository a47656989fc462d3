import type { z } from 'zod';
import type { UserSort } from '../../contract/statuses';
import type { userPageSchema } from '../../contract/users';
import type { Queryable } from '../db/client';
import {
  decodeCursor,
  estimateRows,
  type KeysetPosition,
  type KeysetQuery,
  keysetBatches,
  keysetRows,
  pageOf,
  SqlParams,
  type Total,
  totalWithEstimate,
} from '../db/list';
import { USER_SORT_COLUMNS, USERS_FROM, type UserListQuery, userFilters } from './search-filters';
import { parseSearch, resolveSearch } from './search-grammar';
import { EXACT_TOTAL_LIMIT, fencedSearchPage, type PlanRow, wordRangePage } from './search-plans';
import type { UserSummary } from './summary';
import { areasOf, SUMMARY_COLUMNS, toUserSummary } from './summary';

export type { UserListQuery } from './search-filters';

export type UserPage = z.infer<typeof userPageSchema>;

/**
 * `GET /v2/admin/users` (docs/decisions/0040, 0042, 0043): the query's filters and search, answered by
 * the word-range plan, the fenced plan or the plain keyset plan of the list engine, with the total
 * exact up to EXACT_TOTAL_LIMIT and the planner's estimate beyond.
 */
export async function searchUsers(db: Queryable, query: UserListQuery): Promise<UserPage> {
  const sort = USER_SORT_COLUMNS[query.sort];
  const order = query.order ?? sort.defaultOrder;
  // Bound to the sort it was issued for, so changing the sort needs a fresh start.
  const bound: Record<string, string> = { sort: query.sort, order };
  const cursor: KeysetPosition | null = query.cursor ? decodeCursor(query.cursor, bound, sort.type) : null;
  const search = await resolveSearch(db, query.q ? parseSearch(query.q) : null);
  const countParams = new SqlParams();
  const countWhere = userFilters(countParams, query, search);
  // Only a text search waits for the estimate to choose its plan; the others plan their page meanwhile.
  const estimating = estimateRows(db, USERS_FROM, countWhere, countParams.values);
  // Other queries run before it is awaited; should it fail meanwhile, that is not an unhandled
  // rejection (which ends the process): the awaits below still receive the failure.
  estimating.catch(() => undefined);
  const planned =
    (await wordRangePage(db, query, search, cursor, estimating)) ??
    (await fencedSearchPage(db, query, search, cursor, estimating));
  const [rows, total] = planned
    ? [planned.rows, planned.total]
    : await plainPage(db, query, query.sort, order, search, cursor, {
        countWhere,
        countValues: countParams.values,
        estimating,
      });
  const page = pageOf(rows, query.limit, bound);
  const areas = await areasOf(
    db,
    page.rows.filter((row) => row.role === 'PROFESSIONAL').map((row) => row.id),
  );
  // A first page that holds every match is its own exact count, whatever the estimate said.
  const complete = !query.cursor && page.nextCursor === null;
  return {
    items: page.rows.map((row) => toUserSummary(row, areas.get(row.id) ?? [])),
    nextCursor: page.nextCursor,
    ...(complete ? { total: page.rows.length } : total),
  };
}

/** The plain plan: the keyset page in sort order, and the total from the estimate or a capped count. */
function plainPage(
  db: Queryable,
  query: UserListQuery,
  sort: UserSort,
  order: 'asc' | 'desc',
  search: Parameters<typeof userFilters>[2],
  cursor: KeysetPosition | null,
  counting: { countWhere: string[]; countValues: unknown[]; estimating: Promise<number> },
): Promise<[PlanRow[], Total]> {
  const params = new SqlParams();
  const where = userFilters(params, query, search);
  return Promise.all([
    keysetRows<PlanRow>(
      db,
      {
        select: SUMMARY_COLUMNS,
        from: USERS_FROM,
        where,
        params,
        sort: USER_SORT_COLUMNS[sort],
        id: 'u.id',
        order,
      },
      cursor,
      query.limit + 1,
    ),
    // No `await` among these arguments: one that threw would leave the page query above unhandled.
    counting.estimating.then((estimate) =>
      totalWithEstimate(
        db,
        USERS_FROM,
        counting.countWhere,
        counting.countValues,
        estimate,
        EXACT_TOTAL_LIMIT,
      ),
    ),
  ]);
}

/**
 * Every user the query's filters and search match, in its sort order, as batches through the list
 * engine's keyset (for exports): the plain plan's statement, continued batch after batch.
 */
export async function* streamUsers(
  db: Queryable,
  query: Omit<UserListQuery, 'limit' | 'cursor'>,
  batchSize = 1000,
): AsyncGenerator<UserSummary[]> {
  const sort = USER_SORT_COLUMNS[query.sort];
  const search = await resolveSearch(db, query.q ? parseSearch(query.q) : null);
  const params = new SqlParams();
  const where = userFilters(params, { ...query, limit: batchSize }, search);
  const keyset: KeysetQuery = {
    select: SUMMARY_COLUMNS,
    from: USERS_FROM,
    where,
    params,
    sort,
    id: 'u.id',
    order: query.order ?? sort.defaultOrder,
  };
  for await (const rows of keysetBatches<PlanRow>(db, keyset, batchSize)) {
    const areas = await areasOf(
      db,
      rows.filter((row) => row.role === 'PROFESSIONAL').map((row) => row.id),
    );
    yield rows.map((row) => toUserSummary(row, areas.get(row.id) ?? []));
  }
}

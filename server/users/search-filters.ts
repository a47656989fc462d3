import type { z } from 'zod';
import type { UserSort } from '../../contract/statuses';
import type { userListQuerySchema } from '../../contract/users';
import { dateRange, oneOf, type SortColumn, type SqlParams } from '../db/list';
import type { Search } from './search-grammar';

export type UserListQuery = z.output<typeof userListQuerySchema>;

/** Each sortable column and the SQL it orders by; the expressions match the keyset indexes of 0010. */
export const USER_SORT_COLUMNS: Record<UserSort, SortColumn & { defaultOrder: 'asc' | 'desc' }> = {
  created: { sql: 'u.created_at', type: 'timestamptz', defaultOrder: 'desc' },
  lastActive: {
    sql: "coalesce(u.last_active_at, '-infinity'::timestamptz)",
    type: 'timestamptz',
    defaultOrder: 'desc',
  },
  name: { sql: 'lower(u.name)', type: 'text', defaultOrder: 'asc' },
  email: { sql: 'lower(u.email)', type: 'text', defaultOrder: 'asc' },
};

export const USERS_FROM = 'FROM users u';

/** The filters and the search as WHERE clauses over `users u`. */
export function userFilters(params: SqlParams, query: UserListQuery, search: Search | null): string[] {
  const where = [
    ...oneOf(params, 'u.role', query.role),
    ...oneOf(params, 'u.status', query.status),
    ...oneOf(params, 'u.country', query.country),
    ...oneOf(params, 'u.gender', query.gender),
    ...dateRange(params, 'u.created_at', query.createdFrom, query.createdTo),
    ...dateRange(params, 'u.last_active_at', query.lastActiveFrom, query.lastActiveTo),
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
  if (search && 'emailPart' in search && search.emailPart)
    where.push(`lower(u.email) LIKE ${params.add(search.emailPart)}`);
  return where;
}

import { prefetchUsers, type Role, type UserSearch } from '../../api/users';
import type { PageRequest } from '../../components/DataTable/page-request';
import { DEFAULT_PAGE_SIZE, pageRequest } from '../../components/DataTable/page-request';
import { decodeTableState } from '../../components/DataTable/url-state';

// What a users list asks the API for, apart from its screen code (which loads lazily): the console's
// entry uses it to fetch a list's first page while the session is still being checked.

export type UsersListRole = Extract<Role, 'CUSTOMER' | 'PROFESSIONAL'>;
/** A preset screen's status (disabled doctors, doctors to verify): fixed, so not a filter. */
export type UsersListStatus = 'DISABLED' | 'EMAIL_VERIFIED';

/** The filters a users list offers (a date range is one filter over two URL keys). */
export type UsersFilter = 'status' | 'country' | 'gender' | 'areaOfInterest' | 'created' | 'lastActive';

/** The URL keys (and API parameters) of each date-range filter: from, to. */
export const USERS_DATE_RANGES = {
  created: { from: 'createdFrom', to: 'createdTo' },
  lastActive: { from: 'lastActiveFrom', to: 'lastActiveTo' },
} as const;

/** The filters a users list offers, in the order it shows them. */
export function usersFilters(role: UsersListRole, status?: UsersListStatus): UsersFilter[] {
  return [
    ...(status ? [] : (['status'] as const)),
    'country',
    'gender',
    ...(role === 'PROFESSIONAL' ? (['areaOfInterest'] as const) : []),
    'created',
    'lastActive',
  ];
}

/** The URL keys of those filters, in the table's order (DataTable reads the same ones). */
export function usersFilterKeys(role: UsersListRole, status?: UsersListStatus): string[] {
  return usersFilters(role, status).flatMap((filter) =>
    filter === 'created' || filter === 'lastActive'
      ? [USERS_DATE_RANGES[filter].from, USERS_DATE_RANGES[filter].to]
      : [filter],
  );
}

export function usersFixedFilters(role: UsersListRole, status?: UsersListStatus) {
  return { role: [role], ...(status ? { status: [status] } : {}) };
}

export const usersPageParams = ({ q, filters, sort, order, cursor, limit }: PageRequest): UserSearch => ({
  ...filters,
  q,
  sort,
  order,
  cursor,
  limit,
});

/** Starts the first page the list at `search` (the URL's query string) is about to ask for. */
export function prefetchUsersFirstPage(
  role: UsersListRole,
  status: UsersListStatus | undefined,
  search: string,
) {
  const state = decodeTableState(search, usersFilterKeys(role, status));
  prefetchUsers(
    usersPageParams(pageRequest(state, usersFixedFilters(role, status), DEFAULT_PAGE_SIZE, null)),
  );
}

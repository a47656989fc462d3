import { prefetchUsers, type Role, type UserSearch } from '../../api/users';
import type { PageRequest } from '../../components/DataTable/page-request';
import { DEFAULT_PAGE_SIZE, pageRequest } from '../../components/DataTable/page-request';
import { decodeTableState } from '../../components/DataTable/url-state';

// What a users list asks the API for, apart from its screen code (which loads lazily): the console's
// entry uses it to fetch a list's first page while the session is still being checked.

export type UsersListRole = Extract<Role, 'CUSTOMER' | 'PROFESSIONAL'>;
/** A preset screen's status (disabled doctors, doctors to verify): fixed, so not a filter. */
export type UsersListStatus = 'DISABLED' | 'EMAIL_VERIFIED';

export type UsersFilterKey =
  | 'status'
  | 'country'
  | 'gender'
  | 'areaOfInterest'
  | 'createdFrom'
  | 'createdTo'
  | 'lastActiveFrom'
  | 'lastActiveTo';

/** The filters a users list offers, in the order it shows them. */
export function usersFilterKeys(role: UsersListRole, status?: UsersListStatus): UsersFilterKey[] {
  return [
    ...(status ? [] : (['status'] as const)),
    'country',
    'gender',
    ...(role === 'PROFESSIONAL' ? (['areaOfInterest'] as const) : []),
    'createdFrom',
    'createdTo',
    'lastActiveFrom',
    'lastActiveTo',
  ];
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

import type { SortOrder, TableUrlState } from './url-state';

export const DEFAULT_PAGE_SIZE = 50;

export interface PageRequest {
  q: string;
  filters: Readonly<Record<string, readonly string[]>>;
  sort: string | null;
  order: SortOrder | null;
  cursor: string | null;
  limit: number;
}

/**
 * One page of a table in `state`. The DataTable's own fetches and a first page fetched ahead
 * (during the session check, see docs/decisions/0052) both build it here, so they ask the same.
 */
export function pageRequest(
  state: TableUrlState,
  fixedFilters: Readonly<Record<string, readonly string[]>> | undefined,
  limit: number,
  cursor: string | null,
): PageRequest {
  return {
    q: state.q,
    filters: { ...state.filters, ...fixedFilters },
    sort: state.sort,
    order: state.order,
    cursor,
    limit,
  };
}

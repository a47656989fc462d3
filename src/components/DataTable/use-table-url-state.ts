import { useCallback, useMemo } from 'react';
import { useLocation, useSearch } from 'wouter';
import { decodeTableState, encodeTableState, type TableUrlState } from './url-state';

/**
 * The table state read from and written to the current URL (one history entry per change).
 * `filterKeys` must be stable (memoised): a new array decodes the URL again.
 */
export function useTableUrlState(
  filterKeys: readonly string[],
): [TableUrlState, (next: TableUrlState) => void] {
  const search = useSearch();
  const [location, navigate] = useLocation();
  const state = useMemo(() => decodeTableState(search, filterKeys), [search, filterKeys]);
  const setState = useCallback(
    (next: TableUrlState) => {
      const query = encodeTableState(next, filterKeys, search);
      navigate(query ? `${location}?${query}` : location);
    },
    [search, location, navigate, filterKeys],
  );
  return [state, setState];
}

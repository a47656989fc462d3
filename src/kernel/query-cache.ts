import type { QueryClient, QueryKey } from '@tanstack/react-query';

/*
 * Writing a mutation's answer into the query cache (docs/decisions/0062), instead of invalidating
 * whole key prefixes: an invalidated infinite query refetches every page it has loaded.
 */

interface Identified {
  id: string;
}

/** Whether a mutation's answer is the entity with this id (the API returns the entity after the change). */
export function isEntity<T extends Identified>(value: unknown, id: string): value is T {
  return typeof value === 'object' && value !== null && (value as Partial<Identified>).id === id;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

/** One list page (`{ items, nextCursor, total }`) with the row replaced; the same object when absent. */
function updatePage<T extends Identified>(page: unknown, id: string, update: (row: T) => T): unknown {
  if (!isRecord(page) || !Array.isArray(page.items)) return page;
  let changed = false;
  const items = (page.items as unknown[]).map((row) => {
    if (!isEntity<T>(row, id)) return row;
    changed = true;
    return update(row);
  });
  return changed ? { ...page, items } : page;
}

/** A cached list: keyset pages of `useInfiniteQuery` (`{ pages, pageParams }`) or a single page. */
function updateList<T extends Identified>(data: unknown, id: string, update: (row: T) => T): unknown {
  if (isRecord(data) && Array.isArray(data.pages)) {
    let changed = false;
    const pages = (data.pages as unknown[]).map((page) => {
      const next = updatePage(page, id, update);
      if (next !== page) changed = true;
      return next;
    });
    return changed ? { ...data, pages } : data;
  }
  return updatePage(data, id, update);
}

/**
 * Replaces the row with this id in every cached list under `prefix`, on every loaded page, without a
 * request. Lists without that row keep their data object, so their screens do not re-render.
 */
export function updateCachedRows<T extends Identified>(
  queryClient: QueryClient,
  prefix: QueryKey,
  id: string,
  update: (row: T) => T,
): void {
  for (const [queryKey, data] of queryClient.getQueriesData<unknown>({ queryKey: prefix })) {
    const next = updateList(data, id, update);
    if (next !== data) queryClient.setQueryData(queryKey, next);
  }
}

/**
 * Marks queries stale without fetching anything now: the next screen that shows them asks again
 * (a written row may have left a filtered list, and totals may have moved). Call it after writing,
 * as writing a query makes it fresh again.
 */
export function markStale(queryClient: QueryClient, queryKey: QueryKey): void {
  void queryClient.invalidateQueries({ queryKey, refetchType: 'none' });
}

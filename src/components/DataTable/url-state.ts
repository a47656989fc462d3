export type SortOrder = 'asc' | 'desc';

/** What a table shows, as kept in the page URL: reload, back/forward and pasted links restore it. */
export interface TableUrlState {
  q: string;
  /** Filter key → its values (repeated keys in the URL); keys without values are absent. */
  filters: Readonly<Record<string, readonly string[]>>;
  sort: string | null;
  order: SortOrder | null;
}

export const EMPTY_TABLE_STATE: TableUrlState = { q: '', filters: {}, sort: null, order: null };

const RESERVED = new Set(['q', 'sort', 'order']);

/**
 * Reads the table's keys from a query string. Only the filter keys the table declares are read,
 * so another widget's parameters on the same page are neither taken nor lost.
 */
export function decodeTableState(search: string, filterKeys: readonly string[]): TableUrlState {
  const params = new URLSearchParams(search);
  const filters: Record<string, string[]> = {};
  for (const key of filterKeys) {
    if (RESERVED.has(key)) continue;
    const values = params.getAll(key).filter((v) => v !== '');
    if (values.length > 0) filters[key] = values;
  }
  const order = params.get('order');
  return {
    q: params.get('q') ?? '',
    filters,
    sort: params.get('sort') || null,
    order: order === 'asc' || order === 'desc' ? order : null,
  };
}

/**
 * Writes the state over `base` (the current query string), replacing the table's own keys and
 * keeping every other parameter in place. Empty values are left out so URLs stay short and canonical.
 */
export function encodeTableState(state: TableUrlState, filterKeys: readonly string[], base = ''): string {
  const params = new URLSearchParams(base);
  for (const key of [...RESERVED, ...filterKeys]) params.delete(key);
  if (state.q !== '') params.set('q', state.q);
  for (const key of filterKeys) {
    for (const value of state.filters[key] ?? []) if (value !== '') params.append(key, value);
  }
  if (state.sort) params.set('sort', state.sort);
  if (state.sort && state.order) params.set('order', state.order);
  return params.toString();
}

/** Filters with their values, ready for the API's repeated keys. */
export function filterParams(state: TableUrlState): Record<string, readonly string[]> {
  return Object.fromEntries(Object.entries(state.filters).filter(([, v]) => v.length > 0));
}

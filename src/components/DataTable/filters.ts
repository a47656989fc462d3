export interface FilterOption {
  value: string;
  label: string;
}

/** A filter the table offers (its own module, so DataTable and FilterControl do not import each other). */
export type DataFilter =
  | { key: string; label: string; kind: 'select' | 'multi'; options: readonly FilterOption[] }
  /** Euros typed by the admin, sent as cents. */
  | { key: string; label: string; kind: 'amount' }
  /** Free text, applied on Enter or when the box is left (an id pasted or set by a link). */
  | { key: string; label: string; kind: 'text' }
  /**
   * A period edited as one control with presets: `key` only names the filter (its chip), the URL and
   * the API get the days under `from` and `to` (either may be absent).
   */
  | { key: string; label: string; kind: 'dateRange'; from: string; to: string };

/** The URL keys (and API parameters) a filter writes. */
export const filterUrlKeys = (filter: DataFilter): readonly string[] =>
  filter.kind === 'dateRange' ? [filter.from, filter.to] : [filter.key];

/** The filter's values, by URL key, out of the table's filter state. */
export function filterValues(
  filter: DataFilter,
  all: Readonly<Record<string, readonly string[]>>,
): Record<string, readonly string[]> {
  return Object.fromEntries(filterUrlKeys(filter).map((key) => [key, all[key] ?? []]));
}

/** Whether the filter is set (any of its keys has a value). */
export const isFilterSet = (filter: DataFilter, all: Readonly<Record<string, readonly string[]>>) =>
  filterUrlKeys(filter).some((key) => (all[key]?.length ?? 0) > 0);

import { useInfiniteQuery } from '@tanstack/react-query';
import {
  type ColumnDef,
  columnVisibilityFeature,
  type RowData,
  tableFeatures,
  useTable,
} from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import {
  type FormEvent,
  type KeyboardEvent as ReactKeyboardEvent,
  type ReactNode,
  type RefObject,
  useCallback,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useLocation } from 'wouter';
import type { Page } from '../../../contract/common';
import { useI18n } from '../../i18n/i18n';
import { pluralKey } from '../../i18n/plural';
import { formatError } from '../../kernel/error-format';
import { useActiveRowFocus } from '../../kernel/focus';
import { useScreenKeyHandler } from '../../kernel/key-dispatcher';
import { helpLines } from '../../kernel/key-table';
import { isRestingFocus } from '../../kernel/keys';
import { useScreenKeys } from '../../kernel/screen-keys';
import type { MenuHandle } from '../Menu/Menu';
import { columnsToHide, DEFAULT_TRACK } from './column-fit';
import { useColumnVisibility } from './column-visibility';
import { FilterBar } from './FilterBar';
import { type DataFilter, filterUrlKeys } from './filters';
import {
  type Cursor,
  INITIAL_CURSOR,
  moveCursor,
  TABLE_KEYS,
  type TableKeyAction,
  tableKeyAction,
} from './keyboard';
import { DEFAULT_PAGE_SIZE, type PageRequest, pageRequest } from './page-request';
import { ScrollRegion } from './ScrollRegion';
import type { SortOrder, TableUrlState } from './url-state';
import { useTableUrlState } from './use-table-url-state';

const TABLE_HELP = helpLines(TABLE_KEYS);
/** A table without filters has no `f`: `?` does not list it. */
const UNFILTERED_TABLE_HELP = helpLines(TABLE_KEYS.filter((row) => row.action.type !== 'openFilters'));

export interface DataColumn<T> {
  id: string;
  header: string;
  cell(row: T): ReactNode;
  /** CSS grid track, e.g. `12rem` or `minmax(8rem, 1fr)`. */
  width?: string;
  /** The server's sort key; the header sorts by it when set. */
  sort?: string;
  /** Order of the first click on the header. */
  firstOrder?: SortOrder;
  /** Offered in the column chooser (default true). */
  hideable?: boolean;
}

export type { Page } from '../../../contract/common';
export type { DataFilter, FilterOption } from './filters';
export type { PageRequest } from './page-request';

export interface DataTableProps<T extends RowData, P extends Page<T> = Page<T>> {
  /** Names the table: the column choice is remembered under it. */
  id: string;
  label: string;
  columns: readonly DataColumn<T>[];
  /** Prefix of the cache key, so mutations can invalidate every page of this list. */
  queryKey: readonly unknown[];
  fetchPage(request: PageRequest): Promise<P>;
  getRowId(row: T): string;
  rowHref?(row: T): string;
  filters?: readonly DataFilter[];
  /** Fixed filters of a preset screen (e.g. disabled doctors): sent, never shown nor put in the URL. */
  fixedFilters?: Readonly<Record<string, readonly string[]>>;
  /** Shown while rows are selected; `clear` empties the selection. */
  bulkActions?(rows: T[], clear: () => void): ReactNode;
  /** What the server sorts by when the URL names no sort, so the header can say so. */
  defaultSort?: { sort: string; order: SortOrder };
  pageSize?: number;
  rowHeight?: number;
  /** Shows the free-text search box (default true); lists the API cannot search leave it out. */
  searchable?: boolean;
  /** The server's limit for the search (contract), met while typing rather than refused after. */
  searchMaxLength?: number;
  /**
   * A list inside a detail page (a doctor's cases): with no rows and nothing searched or filtered it
   * is one line ("0 registos"), not a toolbar over an empty box.
   */
  collapseWhenEmpty?: boolean;
  /** What the first page says about the whole list beyond its count (e.g. its money totals), shown beside it. */
  summary?(firstPage: P): ReactNode;
}

const features = tableFeatures({ columnVisibilityFeature });
/**
 * A table without filters, the same array every render: a new `[]` each time made a new URL state each
 * render, whose reset took the keyboard's row away as soon as `j` gave it (the SEPA list).
 */
const NO_FILTERS: readonly DataFilter[] = [];
// The list's counted words, one form per plural category ("1 registo", "2 registos").
const TOTAL = { one: 'table.total.one', other: 'table.total.other' };
const SELECTED = { one: 'table.selected.one', other: 'table.selected.other' };
const OVERSCAN = 10;
/** Start fetching the next page this many rows before the end is reached. */
const PREFETCH_ROWS = 30;

/**
 * Kept in the list's history entry as a row is opened from it: back on that entry (Back, or the row's
 * screen's own "back", `backToTable`), the row opened is the active one again and holds the focus,
 * instead of the list starting over (issue 29 point 6).
 */
const OPENED_ROW = 'dataTableOpenedRow';
/** In the history entry of a screen opened from a table's row. */
const FROM_TABLE = 'openedFromTable';

interface OpenedRow {
  table: string;
  row: string;
}

function openedRowOf(table: string): string | undefined {
  const opened = (window.history.state as Record<string, OpenedRow | undefined> | null)?.[OPENED_ROW];
  return opened?.table === table ? opened.row : undefined;
}

/**
 * A row's screen going back to its list: to the list's own history entry when the row was opened from
 * it (the table then gives the row back its focus), else to `href`.
 */
export function backToTable(navigate: (to: string) => void, href: string): void {
  if ((window.history.state as Record<string, unknown> | null)?.[FROM_TABLE]) window.history.back();
  else navigate(href);
}

/** The root font size: the columns' widths are in rem. */
const remPx = () => Number.parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;

/** The width of the table's box, followed as the window or the layout changes; 0 until measured. */
function useAvailableWidth(box: RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const measure = () => setWidth(element.clientWidth);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [box]);
  return width;
}

export function DataTable<T extends RowData, P extends Page<T> = Page<T>>(props: DataTableProps<T, P>) {
  const { t, locale } = useI18n();
  const [, navigate] = useLocation();
  const { columns, getRowId, rowHref, filters = NO_FILTERS, fixedFilters, defaultSort } = props;
  const rowHeight = props.rowHeight ?? 32;
  const pageSize = props.pageSize ?? DEFAULT_PAGE_SIZE;
  const filterKeys = useMemo(() => filters.flatMap(filterUrlKeys), [filters]);
  const [state, setState] = useTableUrlState(filterKeys);
  const [draft, setDraft] = useState(state.q);
  const [cursor, setCursor] = useState<Cursor>(INITIAL_CURSOR);
  const [visibility, setVisibility] = useColumnVisibility(props.id);
  const rootRef = useRef<HTMLDivElement>(null);
  const scrollRef = useRef<HTMLElement>(null);
  const available = useAvailableWidth(scrollRef);
  const searchRef = useRef<HTMLInputElement>(null);
  const filterMenu = useRef<MenuHandle>(null);

  // Back/forward or a pasted link changes the URL under the box: show what is searched.
  useEffect(() => setDraft(state.q), [state.q]);

  const query = useInfiniteQuery({
    queryKey: [...props.queryKey, state, fixedFilters ?? null, pageSize],
    queryFn: ({ pageParam }) => props.fetchPage(pageRequest(state, fixedFilters, pageSize, pageParam)),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    meta: { inlineError: true },
  });
  const rows = useMemo(() => query.data?.pages.flatMap((p) => p.items) ?? [], [query.data]);
  const rowIds = useMemo(() => rows.map(getRowId), [rows, getRowId]);
  const firstPage = query.data?.pages[0];

  // Set when a search is sent from the search box: its first row takes the cursor once it is shown.
  const toFirstRow = useRef(false);
  // What is listed, by its content: an equal state made again (the screen's filters rebuilt as its
  // strings load) is not a new list.
  const listed = JSON.stringify([state, fixedFilters ?? null]);
  // Back on the list a row was opened from: that row, while the list is the one it was opened in.
  const reopened = useRef({ row: openedRowOf(props.id), listed });
  // A new search is a new list: keyboard position and selection start over.
  useEffect(() => {
    if (reopened.current.listed !== listed) reopened.current.row = undefined;
    setCursor(toFirstRow.current ? { ...INITIAL_CURSOR, active: 0 } : INITIAL_CURSOR);
    toFirstRow.current = false;
  }, [listed]);

  const columnDefs = useMemo<ColumnDef<typeof features, T, unknown>[]>(
    () =>
      columns.map((c) => ({
        id: c.id,
        header: c.header,
        accessorFn: (row: T) => row,
        cell: ({ row }) => c.cell(row.original),
        enableHiding: c.hideable !== false,
      })),
    [columns],
  );
  // What the admin chose in the chooser, over what the width leaves room for. Memoised: the table's
  // store takes a new state object as a change, and a new one on every render never settles.
  const fitted = useMemo(
    () => ({ ...columnsToHide(columns, visibility, available, remPx()), ...visibility }),
    [columns, visibility, available],
  );
  const table = useTable({
    features,
    columns: columnDefs,
    data: rows,
    getRowId: (row) => getRowId(row),
    state: { columnVisibility: fitted },
  });
  const visibleColumns = table.getVisibleLeafColumns();
  const byId = useMemo(() => new Map(columns.map((c) => [c.id, c])), [columns]);
  const template = visibleColumns.map((c) => byId.get(c.id)?.width ?? DEFAULT_TRACK).join(' ');

  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan: OVERSCAN,
    scrollPaddingStart: rowHeight,
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items[items.length - 1]?.index ?? -1;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && lastIndex >= rows.length - PREFETCH_ROWS) void fetchNextPage();
  }, [lastIndex, rows.length, hasNextPage, isFetchingNextPage, fetchNextPage]);

  const update = useCallback(
    (patch: Partial<TableUrlState>) => setState({ ...state, ...patch }),
    [state, setState],
  );

  const open = useCallback(
    (index: number) => {
      const row = rows[index];
      if (row === undefined || !rowHref) return;
      const opened: OpenedRow = { table: props.id, row: getRowId(row) };
      window.history.replaceState({ ...window.history.state, [OPENED_ROW]: opened }, '');
      navigate(rowHref(row), { state: { [FROM_TABLE]: true } });
    },
    [rows, rowHref, navigate, props.id, getRowId],
  );

  // Back from a row opened from this table: once its rows are here, that row is active again (until
  // a key moves the keyboard elsewhere; run again as rows arrive, and by React's strict remount).
  // biome-ignore lint/correctness/useExhaustiveDependencies: looked for as rows arrive
  useEffect(() => {
    const id = reopened.current.row;
    const index = id === undefined ? -1 : rowIds.indexOf(id);
    if (index < 0) return;
    setCursor((c) => (c.active === -1 ? { ...c, active: index } : c));
    virtualizer.scrollToIndex(index);
  }, [rowIds]);

  const apply = useCallback(
    (action: TableKeyAction) => {
      reopened.current.row = undefined;
      // A list the API cannot search: `/` goes to its filters.
      if (action.type === 'focusSearch')
        (searchRef.current ?? rootRef.current?.querySelector<HTMLElement>('.filter-bar-button'))?.focus();
      else if (action.type === 'openFilters') filterMenu.current?.open();
      else if (action.type === 'open') open(cursor.active);
      else {
        const next = moveCursor(cursor, action, rowIds);
        setCursor(next);
        if (next.active !== cursor.active && next.active >= 0) virtualizer.scrollToIndex(next.active);
      }
    },
    [cursor, rowIds, open, virtualizer],
  );

  useScreenKeys(useId(), filters.length > 0 ? TABLE_HELP : UNFILTERED_TABLE_HELP);
  useActiveRowFocus(rootRef, cursor.active);

  // Through the one dispatcher (decision 0127): never in a field, under a modal or the palette, or as
  // a chord's second key; Enter on a button or link in the table is that control's (`keyAction`).
  useScreenKeyHandler((event) => {
    const inTable = isRestingFocus(event.target) || rootRef.current?.contains(event.target as Node);
    const action = inTable ? tableKeyAction(event) : null;
    if (action) apply(action);
    return action !== null;
  });

  /** Sends what is typed (if it changed) and hands the keyboard to the rows: j, k, x, Enter work at once. */
  const searchThenRows = (input: HTMLInputElement | null) => {
    const q = draft.trim();
    if (q !== state.q) {
      toFirstRow.current = true;
      update({ q });
    } else setCursor((c) => ({ ...c, active: rows.length > 0 ? 0 : -1 }));
    input?.blur();
  };
  const submitSearch = (event: FormEvent) => {
    event.preventDefault();
    searchThenRows(searchRef.current);
  };
  const onSearchKeyDown = (event: ReactKeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      searchThenRows(event.currentTarget);
      return;
    }
    if (event.key !== 'Escape') return;
    event.preventDefault();
    setDraft('');
    if (state.q !== '') update({ q: '' });
    // Back to the rows: the table keys work again from the page.
    event.currentTarget.blur();
  };

  const sortBy = (column: DataColumn<T>) => {
    if (!column.sort) return;
    const first = column.firstOrder ?? 'asc';
    const current = currentOrder(column);
    const order: SortOrder = current === null ? first : current === 'asc' ? 'desc' : 'asc';
    update({ sort: column.sort, order });
  };
  const currentOrder = (column: DataColumn<T>): SortOrder | null => {
    const sort = state.sort ?? defaultSort?.sort ?? null;
    if (!column.sort || sort !== column.sort) return null;
    return state.order ?? (state.sort ? (column.firstOrder ?? 'asc') : (defaultSort?.order ?? 'asc'));
  };

  const selectedRows = useMemo(
    () => rows.filter((_, i) => cursor.selected.has(rowIds[i] as string)),
    [rows, rowIds, cursor.selected],
  );
  const clearSelection = useCallback(
    () => setCursor((c) => ({ ...c, anchor: null, selected: new Set() })),
    [],
  );
  const number = useMemo(() => new Intl.NumberFormat(locale), [locale]);
  const loading = query.isPending;

  if (
    props.collapseWhenEmpty &&
    firstPage?.total === 0 &&
    state.q === '' &&
    Object.keys(state.filters).length === 0
  )
    return (
      <p className="data-table-empty" role="status" data-testid={`${props.id}-total`}>
        {t(pluralKey(locale, 0, TOTAL), { count: number.format(0) })}
      </p>
    );

  return (
    <div className="data-table" ref={rootRef}>
      <div className="data-table-toolbar">
        {props.searchable === false ? null : (
          <form onSubmit={submitSearch} className="data-table-search">
            <input
              ref={searchRef}
              type="search"
              aria-label={t('table.search')}
              placeholder={t('table.searchHint')}
              maxLength={props.searchMaxLength}
              value={draft}
              onChange={(e) => setDraft(e.target.value)}
              onKeyDown={onSearchKeyDown}
            />
          </form>
        )}
        {filters.length > 0 ? (
          <FilterBar
            tableId={props.id}
            filters={filters}
            values={state.filters}
            onChange={(patch) => update({ filters: { ...state.filters, ...patch } })}
            menu={filterMenu}
          />
        ) : null}
        <output className="data-table-total" aria-live="polite" data-testid={`${props.id}-total`}>
          {firstPage
            ? t(pluralKey(locale, firstPage.total, TOTAL), {
                count: `${firstPage.totalEstimated ? '≈ ' : ''}${number.format(firstPage.total)}`,
              })
            : '\u00a0'}
        </output>
        {firstPage && props.summary ? props.summary(firstPage) : null}
        <details className="data-table-columns">
          <summary>{t('table.columns')}</summary>
          <fieldset>
            <legend>{t('table.columnsLegend')}</legend>
            {table
              .getAllLeafColumns()
              .filter((c) => c.getCanHide())
              .map((c) => (
                <label key={c.id}>
                  <input
                    type="checkbox"
                    checked={c.getIsVisible()}
                    // Only the column ticked becomes the admin's choice; the others keep fitting the width.
                    onChange={() => setVisibility({ ...visibility, [c.id]: !c.getIsVisible() })}
                  />
                  <span>{byId.get(c.id)?.header}</span>
                </label>
              ))}
          </fieldset>
        </details>
      </div>
      <div className="data-table-bulk" aria-live="polite">
        {selectedRows.length > 0 ? (
          <>
            <span>{t(pluralKey(locale, selectedRows.length, SELECTED), { count: selectedRows.length })}</span>
            {props.bulkActions?.(selectedRows, clearSelection)}
          </>
        ) : null}
      </div>
      <ScrollRegion ref={scrollRef} label={props.label}>
        <table
          className="data-table-grid"
          aria-label={props.label}
          aria-rowcount={firstPage ? firstPage.total + 1 : -1}
          aria-busy={query.isFetching}
        >
          <thead className="data-table-head">
            <tr className="data-table-row" style={{ gridTemplateColumns: template, height: rowHeight }}>
              {visibleColumns.map((c) => {
                const column = byId.get(c.id);
                const order = column ? currentOrder(column) : null;
                return (
                  <th
                    key={c.id}
                    scope="col"
                    // The whole header on hover when the column is too narrow for it (cut with an ellipsis).
                    title={column?.header}
                    aria-sort={order === 'asc' ? 'ascending' : order === 'desc' ? 'descending' : undefined}
                  >
                    {column?.sort ? (
                      <button type="button" className="data-table-sort" onClick={() => sortBy(column)}>
                        {column.header}
                        <span aria-hidden="true">
                          {order === 'asc' ? ' ▲' : order === 'desc' ? ' ▼' : ''}
                        </span>
                      </button>
                    ) : (
                      column?.header
                    )}
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody className="data-table-body" style={{ height: virtualizer.getTotalSize() }}>
            {items.map((item) => {
              const row = table.getRowModel().rows[item.index];
              if (!row) return null;
              return (
                <tr
                  key={row.id}
                  aria-rowindex={item.index + 2}
                  aria-selected={cursor.selected.has(row.id)}
                  data-active={cursor.active === item.index || undefined}
                  // The active row holds the focus: a dialog opened on it gives focus back to it.
                  tabIndex={-1}
                  className="data-table-row data-table-body-row"
                  style={{
                    gridTemplateColumns: template,
                    height: rowHeight,
                    transform: `translateY(${item.start}px)`,
                  }}
                  onClick={() => open(item.index)}
                >
                  {row.getVisibleCells().map((cell) => (
                    <td key={cell.id}>{byId.get(cell.column.id)?.cell(row.original)}</td>
                  ))}
                </tr>
              );
            })}
          </tbody>
        </table>
        {query.error ? (
          // The list's own failure, here and only here (its query keeps the toast silent).
          <div className="data-table-status screen-error" role="alert">
            {formatError(query.error, t).message}
          </div>
        ) : loading || rows.length === 0 ? (
          <div className="data-table-status" role="status">
            {loading ? t('table.loading') : t('errorMessages.NO_RECORDS_FOUND')}
          </div>
        ) : null}
      </ScrollRegion>
    </div>
  );
}

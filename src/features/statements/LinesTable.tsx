import { type InfiniteData, useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useActorRef, useSelector } from '@xstate/react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { fromPromise } from 'xstate';
import type {
  IgnoreFilter,
  SuggestionFilter,
  SuggestionFilterTotals,
} from '../../../contract/reconciliation';
import {
  STATEMENT_IGNORABLE_STATUSES,
  STATEMENT_LINE_STATUSES,
  SUGGESTION_SCORE_FILTERS,
} from '../../../contract/statuses';
import { formatCents } from '../../../domain/money';
import {
  type BulkOutcome,
  type CountedScope,
  type CursorMove,
  type LineAction,
  type ReconciliationOutcome,
  type ReconciliationRequest,
  reconciliationMachine,
} from '../../../machines/reconciliation';
import {
  fetchBulkTotals,
  fetchStatementLines,
  performReconciliation,
  type StatementFileRow,
  type StatementLinePage,
  type StatementLineRow,
  statementKeys,
} from '../../api/statements';
import { FilterBar } from '../../components/DataTable/FilterBar';
import { type DataFilter, filterUrlKeys } from '../../components/DataTable/filters';
import { TABLE_KEYS, type TableKeyAction, tableKeyAction } from '../../components/DataTable/keyboard';
import { ScrollRegion } from '../../components/DataTable/ScrollRegion';
import { useTableUrlState } from '../../components/DataTable/use-table-url-state';
import type { MenuHandle } from '../../components/Menu/Menu';
import { Pill, type Tone } from '../../components/Pill/Pill';
import { errorCodeKey } from '../../i18n/error-codes';
import { type Translate, useI18n } from '../../i18n/i18n';
import { pluralKey } from '../../i18n/plural';
import { formatDate } from '../../kernel/dates';
import { useActiveRowFocus } from '../../kernel/focus';
import { useScreenKeyHandler } from '../../kernel/key-dispatcher';
import { helpLines, keyAction } from '../../kernel/key-table';
import { isRestingFocus } from '../../kernel/keys';
import { useScreenKeys } from '../../kernel/screen-keys';
import { BulkConfirm } from './BulkConfirm';
import { type LineDialogState, LineDialogs, scorePoints } from './LineDialogs';
import { InvoicingCell, ProviderCell, SideCell } from './LineSides';
import { suggestedSure, useLinesCursor } from './lines-cursor';
import { markMoneyScreensStale } from './money-moved';
import { RECONCILE_KEYS, type ReconcileKeyAction } from './reconcile-keys';
import { suggestionWhy } from './suggestion-why';

const ROW_HEIGHT = 32;
const PAGE = 500;
const PREFETCH_ROWS = 50;
const COLUMNS =
  '3.5rem 6rem 7rem minmax(0, 1.2fr) minmax(0, 1.2fr) minmax(0, 1.4fr) minmax(0, 1fr) minmax(0, 1.5fr) 7.5rem minmax(0, 1.3fr)';
const HELP = [
  ...helpLines(TABLE_KEYS.filter((row) => row.action.type !== 'open')),
  ...helpLines(RECONCILE_KEYS),
];

export const STATUS_TONES: Record<StatementLineRow['status'], Tone> = {
  UNMATCHED: 'neutral',
  SUGGESTED: 'waiting',
  MATCHED: 'success',
  DISCREPANCY: 'danger',
  IGNORED: 'neutral',
};

/** Each reason's text, in the order shown. */
const SKIP_REASONS: readonly [keyof NonNullable<BulkOutcome['skippedBecause']>, string][] = [
  ['notOpen', 'statements.lines.skippedBecause.notOpen'],
  ['notSuggested', 'statements.lines.skippedBecause.notSuggested'],
  ['counterpartTaken', 'statements.lines.skippedBecause.counterpartTaken'],
  ['amountDiffers', 'statements.lines.skippedBecause.amountDiffers'],
  ['changedMeanwhile', 'statements.lines.skippedBecause.changedMeanwhile'],
];

/**
 * "Accepted: 3 · left as they were: 2 (1 no longer suggested, 1 with a different amount)" — or "Ignored: …"
 * — and what a filtered accept or ignore left for the next `Shift+a` or `Shift+i`.
 */
function bulkOutcome(t: Translate, locale: string, bulk: BulkOutcome): string {
  const counts =
    bulk.kind === 'accept'
      ? t('statements.lines.accepted', { accepted: bulk.done, skipped: bulk.skipped })
      : t('statements.lines.ignored', { ignored: bulk.done, skipped: bulk.skipped });
  const reasons = SKIP_REASONS.flatMap(([reason, key]) => {
    const count = bulk.skippedBecause?.[reason] ?? 0;
    return count > 0 ? [t(key, { count })] : [];
  });
  const outcome = reasons.length > 0 ? `${counts} (${reasons.join(', ')})` : counts;
  if (bulk.remaining === 0) return outcome;
  const remaining = t(
    pluralKey(
      locale,
      bulk.remaining,
      bulk.kind === 'accept'
        ? { one: 'statements.lines.remaining.one', other: 'statements.lines.remaining.other' }
        : { one: 'statements.lines.remainingIgnore.one', other: 'statements.lines.remainingIgnore.other' },
    ),
    { count: bulk.remaining },
  );
  return `${outcome} · ${remaining}`;
}

/** No line passed over: the table lists the score filter's suggestions, to go through them one by one. */
const NONE: ReadonlySet<string> = new Set();

/**
 * The "score ≥ x" filter of the table's URL as the filtered accept takes it (decision 0147): the
 * line facts filtered and the score; null without a score filter, or when another filter leaves
 * suggestions out (the table then shows none of what it would accept).
 */
function scoreFilterOf(filters: TableFilters): SuggestionFilter | null {
  const minScore = filters.minScore?.[0];
  const statuses = filters.status ?? [];
  // With the automation card's or the payout-invoice filter (matched lines only) the table shows no suggestion.
  const noSuggestions =
    (statuses.length > 0 && !statuses.includes('SUGGESTED')) ||
    filters.automatedMonth?.[0] ||
    filters.payoutWithoutInvoice?.[0];
  if (minScore === undefined || noSuggestions) return null;
  return { minScore: Number(minScore), ...lineFactsOf(filters) } as SuggestionFilter;
}

type TableFilters = Readonly<Record<string, readonly string[]>>;

/** The filters of the table's URL on what a line is (file, dates, amounts, kind, counterparty, text). */
function lineFactsOf(filters: TableFilters) {
  const one = (key: string) => filters[key]?.[0];
  const cents = (key: string) => (one(key) === undefined ? {} : { [key]: Number(one(key)) });
  const text = (key: string) => (one(key) === undefined ? {} : { [key]: one(key) });
  return {
    ...text('statementFileId'),
    ...text('from'),
    ...text('to'),
    ...cents('minCents'),
    ...cents('maxCents'),
    ...text('kind'),
    ...text('counterparty'),
    ...text('text'),
  };
}

/**
 * The table's filter as a bulk ignore takes it (decision 0161): its line facts, its statuses that can be
 * ignored, "no candidate". Null when the table lists lines the ignore's filter cannot name (a score, the
 * automation card's, the payout-invoice filter), when its statuses leave every open line out, or when
 * nothing narrows it (never every open line of every file).
 */
function ignoreFilterOf(filters: TableFilters): IgnoreFilter | null {
  if (filters.minScore?.[0] || filters.automatedMonth?.[0] || filters.payoutWithoutInvoice?.[0]) return null;
  const facts = lineFactsOf(filters);
  const noCandidate = filters.noCandidate?.[0] === 'true';
  if (Object.keys(facts).length === 0 && !noCandidate) return null;
  const statuses = filters.status ?? [];
  const open = STATEMENT_IGNORABLE_STATUSES.filter((s) => statuses.length === 0 || statuses.includes(s));
  if (open.length === 0) return null;
  return {
    ...facts,
    ...(statuses.length > 0 ? { status: open } : {}),
    ...(noCandidate ? { noCandidate: true } : {}),
  } as IgnoreFilter;
}

/** Replaces the rows the server answered in every cached page of the lines list. */
function writeRows(pages: InfiniteData<StatementLinePage> | undefined, rows: readonly StatementLineRow[]) {
  if (!pages) return pages;
  const byId = new Map(rows.map((row) => [row.id, row]));
  return {
    ...pages,
    pages: pages.pages.map((page) => ({
      ...page,
      items: page.items.map((item) => byId.get(item.id) ?? item),
    })),
  };
}

/**
 * Every statement line (all files or one), filtered in the URL, reconciled by keyboard (issue 12 item 5).
 * The selection and the one pending action live in the `reconciliation` machine; a row changes only
 * with the server's answer.
 */
export function LinesTable({ files }: { files: readonly StatementFileRow[] }) {
  const { t, locale } = useI18n();
  const queryClient = useQueryClient();
  const money = (cents: number) => formatCents(cents, locale, 'EUR');
  const filters = useMemo<DataFilter[]>(
    () => [
      {
        key: 'status',
        label: t('statements.lines.status'),
        kind: 'multi',
        options: STATEMENT_LINE_STATUSES.map((s) => ({ value: s, label: t(`statements.status.${s}`) })),
      },
      {
        key: 'statementFileId',
        label: t('statements.lines.file'),
        kind: 'select',
        options: files.map((f) => ({ value: f.id, label: f.fileName })),
      },
      { key: 'date', label: t('statements.columns.bankDate'), kind: 'dateRange', from: 'from', to: 'to' },
      { key: 'minCents', label: t('statements.lines.minAmount'), kind: 'amount' },
      { key: 'maxCents', label: t('statements.lines.maxAmount'), kind: 'amount' },
      {
        key: 'kind',
        label: t('statements.lines.kind'),
        kind: 'select',
        options: (['transfer', 'return', 'fee', 'other'] as const).map((k) => ({
          value: k,
          label: t(`statements.kind.${k}`),
        })),
      },
      { key: 'counterparty', label: t('statements.lines.counterparty'), kind: 'text' },
      // The words the bank printed ("COMISSAO"): the month's fees, found to be ignored together (decision 0161).
      { key: 'text', label: t('statements.lines.text'), kind: 'text' },
      {
        key: 'noCandidate',
        label: t('statements.lines.noCandidate'),
        kind: 'select',
        options: [{ value: 'true', label: t('statements.lines.noCandidateOption') }],
      },
      // The home dashboard's automation card opens this (decision 0147): a month, `YYYY-MM`.
      { key: 'automatedMonth', label: t('statements.lines.automatedMonth'), kind: 'text' },
      {
        key: 'minScore',
        label: t('statements.lines.minScore'),
        kind: 'select',
        options: SUGGESTION_SCORE_FILTERS.map((score) => ({
          value: score,
          label: t('statements.lines.minScoreOption', { score: scorePoints(Number(score)) }),
        })),
      },
      // Lines whose payout paid a settlement no invoice bills (decision 0156): the palette opens it too.
      {
        key: 'payoutWithoutInvoice',
        label: t('statements.lines.payoutWithoutInvoice'),
        kind: 'select',
        options: [{ value: 'true', label: t('statements.lines.payoutWithoutInvoiceOption') }],
      },
    ],
    [t, files],
  );
  const filterKeys = useMemo(() => filters.flatMap(filterUrlKeys), [filters]);
  const [state, setState] = useTableUrlState(filterKeys);
  const filterMenu = useRef<MenuHandle>(null);
  const scrollRef = useRef<HTMLElement>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  // Where `Shift+x` extends from: the line `x` selected, held by its id like the cursor (decision 0169), so a
  // read that adds or drops rows above it does not move it.
  const [anchor, setAnchor] = useState<string | null>(null);
  const [dialog, setDialog] = useState<LineDialogState | null>(null);
  const [ignoreNeedsFilter, setIgnoreNeedsFilter] = useState(false);

  const queryKey = useMemo(() => [...statementKeys.lines, state.filters] as const, [state.filters]);
  const query = useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam }) => fetchStatementLines({ ...state.filters, cursor: pageParam, limit: PAGE }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    meta: { inlineError: true },
  });
  const rows = useMemo(() => query.data?.pages.flatMap((p) => p.items) ?? [], [query.data]);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
    scrollPaddingStart: ROW_HEIGHT,
  });
  const scrollTo = useCallback((index: number) => virtualizer.scrollToIndex(index), [virtualizer]);
  // Lines a decision's answer brought back sure (said again, decision 0179): the cursor passes over them,
  // left for the score filter's Shift+a — unless the table lists that filter, to go through them.
  const [saidSure, setSaidSure] = useState<ReadonlySet<string>>(new Set());
  const cursor = useLinesCursor(rows, query, scrollTo, state.filters.minScore?.[0] ? NONE : saidSure);
  const { active, follow } = cursor;
  // A new filter is a new list: the keyboard starts over at its top. By value: the files list refreshing
  // after an action rebuilds the filters, not what they hold.
  const filtersKey = JSON.stringify(state.filters);
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset whenever the filters' values change
  useEffect(() => {
    cursor.reset();
    setAnchor(null);
    setIgnoreNeedsFilter(false);
  }, [filtersKey]);

  const logic = useMemo(
    () =>
      reconciliationMachine.provide({
        actors: {
          perform: fromPromise<ReconciliationOutcome, ReconciliationRequest>(({ input }) =>
            performReconciliation(input),
          ),
          count: fromPromise<SuggestionFilterTotals, CountedScope>(({ input }) => fetchBulkTotals(input)),
        },
        actions: {
          applyRows: (_, { lines }) => {
            setSaidSure((before) => {
              const next = new Set(before);
              for (const row of lines as StatementLineRow[])
                if (suggestedSure(row)) next.add(row.id);
                else next.delete(row.id);
              return next;
            });
            queryClient.setQueriesData<InfiniteData<StatementLinePage>>(
              { queryKey: statementKeys.lines },
              (data) => writeRows(data, lines as StatementLineRow[]),
            );
            void queryClient.invalidateQueries({ queryKey: statementKeys.files });
            markMoneyScreensStale(queryClient);
          },
          // A bulk accept answers counts (decision 0108): the pages shown are read again.
          refreshRows: () => {
            void queryClient.invalidateQueries({ queryKey: statementKeys.lines });
            void queryClient.invalidateQueries({ queryKey: statementKeys.files });
            markMoneyScreensStale(queryClient);
          },
          // On to the next open line after a decision, back to the line an undo undid (decision 0169).
          moveCursor: (_, move: CursorMove) => follow(move),
        },
      }),
    [queryClient, follow],
  );
  const actor = useActorRef(logic);
  const machine = useSelector(actor, (s) => s);
  const selected = useMemo(() => new Set(machine.context.selected), [machine.context.selected]);
  const busy = machine.hasTag('busy');

  const items = virtualizer.getVirtualItems();
  const lastIndex = items[items.length - 1]?.index ?? -1;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && lastIndex >= rows.length - PREFETCH_ROWS) void fetchNextPage();
  }, [lastIndex, rows.length, hasNextPage, isFetchingNextPage, fetchNextPage]);

  useScreenKeys('statement-lines', HELP);
  useActiveRowFocus(rootRef, active);

  const act = (action: LineAction) => actor.send({ type: 'act', action });
  const current = rows[active];

  // Through the one dispatcher (decision 0127): never in a field, under a modal or the palette, or as
  // a chord's second key (a `g u` chord must not unmatch the active line).
  useScreenKeyHandler((event) => {
    const inTable = isRestingFocus(event.target) || rootRef.current?.contains(event.target as Node);
    if (!inTable) return false;
    const reconcile = keyAction(RECONCILE_KEYS, event);
    const move = reconcile ? null : tableKeyAction(event);
    if (reconcile) runReconcileKey(reconcile);
    else if (move) runTableKey(move);
    return reconcile !== null || move !== null;
  });

  function runTableKey(move: TableKeyAction) {
    if (move.type === 'move') {
      const next =
        rows.length === 0 ? -1 : active < 0 ? 0 : Math.min(rows.length - 1, Math.max(0, active + move.by));
      if (next >= 0) cursor.activate(next);
    } else if (move.type === 'select' && current) {
      actor.send({ type: 'select.toggle', id: current.id });
      setAnchor(current.id);
    } else if (move.type === 'extend' && current) {
      const at = anchor === null ? -1 : rows.findIndex((row) => row.id === anchor);
      const from = Math.min(at < 0 ? active : at, active);
      const to = Math.max(at < 0 ? active : at, active);
      actor.send({ type: 'select.add', ids: rows.slice(from, to + 1).map((r) => r.id) });
    } else if (move.type === 'clear') actor.send({ type: 'select.clear' });
    else if (move.type === 'openFilters') filterMenu.current?.open();
    else if (move.type === 'focusSearch')
      rootRef.current?.querySelector<HTMLElement>('.filter-bar-button')?.focus();
  }

  function runReconcileKey(reconcile: ReconcileKeyAction) {
    if (reconcile.type === 'acceptSelected') {
      // A selection is accepted as selected; with none, the score filter's suggestions on every page.
      const scoreFilter = selected.size === 0 ? scoreFilterOf(state.filters) : null;
      if (scoreFilter) return actor.send({ type: 'filterAccept', filter: scoreFilter });
      return actor.send({ type: 'bulkAccept', idempotencyKey: crypto.randomUUID() });
    }
    if (reconcile.type === 'ignoreSelected') {
      const ignoreFilter = selected.size === 0 ? ignoreFilterOf(state.filters) : null;
      // Never every open line of every file: say what Shift+i needs instead of doing nothing.
      setIgnoreNeedsFilter(selected.size === 0 && ignoreFilter === null);
      if (ignoreFilter) return actor.send({ type: 'filterIgnore', filter: ignoreFilter });
      if (selected.size === 0) return;
      // A selection is ignored as selected: its open lines, counted here from the rows they are.
      const open = rows.filter(
        (row) =>
          selected.has(row.id) && (STATEMENT_IGNORABLE_STATUSES as readonly string[]).includes(row.status),
      );
      const sumCents = open.reduce((sum, row) => sum + row.bankAmountCents, 0);
      return actor.send({ type: 'ignoreSelected', totals: { count: open.length, sumCents } });
    }
    if (reconcile.type === 'undo') return actor.send({ type: 'undo' });
    if (!current) return;
    switch (reconcile.type) {
      case 'accept':
        if (current.suggestion) act({ kind: 'accept', lineId: current.id });
        return;
      case 'unmatch':
        return act({ kind: 'unmatch', lineId: current.id });
      case 'candidate':
        return setDialog({ kind: 'match', line: current, nth: reconcile.nth });
      case 'picker':
        return setDialog({ kind: 'match', line: current, nth: null });
      case 'ignore':
        return setDialog({ kind: 'ignore', line: current });
      case 'note':
        return setDialog({ kind: 'note', line: current });
      case 'history':
        return setDialog({ kind: 'history', line: current });
    }
  }

  return (
    <section className="statement-lines data-table" ref={rootRef} aria-labelledby="statement-lines-title">
      <h2 id="statement-lines-title">{t('statements.lines.title')}</h2>
      <div className="data-table-toolbar">
        <FilterBar
          tableId="statement-lines"
          filters={filters}
          values={state.filters}
          onChange={(patch) => setState({ ...state, filters: { ...state.filters, ...patch } })}
          menu={filterMenu}
        />
        <output className="data-table-total" aria-live="polite" data-testid="statement-lines-total">
          {query.data?.pages[0]
            ? t(
                pluralKey(locale, query.data.pages[0].total, {
                  one: 'statements.lines.total.one',
                  other: 'statements.lines.total.other',
                }),
                {
                  count: `${query.data.pages[0].totalEstimated ? '≈ ' : ''}${new Intl.NumberFormat(locale).format(query.data.pages[0].total)}`,
                },
              )
            : '\u00a0'}
        </output>
      </div>
      <div className="data-table-bulk" aria-live="polite" data-testid="statement-lines-status">
        {selected.size > 0 ? (
          <span>
            {t(
              pluralKey(locale, selected.size, {
                one: 'statements.lines.selected.one',
                other: 'statements.lines.selected.other',
              }),
              { count: selected.size },
            )}
          </span>
        ) : null}
        {machine.matches('counting') ? (
          <span>
            {t(
              machine.context.confirm?.scope.kind === 'filterAccept'
                ? 'statements.filterAccept.counting'
                : 'statements.bulkIgnore.counting',
            )}
          </span>
        ) : busy ? (
          <span>{t('statements.lines.working')}</span>
        ) : cursor.seeking ? (
          <span>{t('statements.lines.seekingNextOpen')}</span>
        ) : cursor.readWithoutOpen !== null ? (
          <span role="status">
            {t(
              pluralKey(locale, cursor.readWithoutOpen, {
                one: 'statements.lines.noOpenWithin.one',
                other: 'statements.lines.noOpenWithin.other',
              }),
              { count: new Intl.NumberFormat(locale).format(cursor.readWithoutOpen) },
            )}
          </span>
        ) : null}
        {machine.context.bulk ? <span>{bulkOutcome(t, locale, machine.context.bulk)}</span> : null}
        {ignoreNeedsFilter ? <span role="alert">{t('statements.bulkIgnore.needsFilter')}</span> : null}
        {machine.context.error ? (
          <span role="alert">{t(errorCodeKey(machine.context.error) ?? 'errorMessages.fallback')}</span>
        ) : null}
      </div>
      {/* The active row's suggestion in full (its cell is cut to the column): why, without a mouse. */}
      <p className="statement-line-why" aria-live="polite" data-testid="active-suggestion">
        {current?.suggestion
          ? t('statements.lines.activeSuggestion', {
              line: current.lineNumber,
              label: current.suggestion.label,
              score: t('statements.lines.score', { score: scorePoints(current.suggestion.score) }),
              why: t('statements.lines.why', { reasons: suggestionWhy(t, current.suggestion) }),
            })
          : '\u00a0'}
      </p>
      <ScrollRegion ref={scrollRef} label={t('statements.lines.label')}>
        <table
          className="data-table-grid"
          aria-label={t('statements.lines.label')}
          aria-rowcount={rows.length + 1}
          aria-busy={busy}
        >
          <thead className="data-table-head">
            <tr className="data-table-row" style={{ gridTemplateColumns: COLUMNS, height: ROW_HEIGHT }}>
              <th scope="col">{t('statements.lines.line')}</th>
              <th scope="col">{t('statements.columns.bankDate')}</th>
              <th scope="col">{t('statements.lines.bank')}</th>
              <th scope="col">{t('statements.lines.provider')}</th>
              <th scope="col">{t('statements.lines.invoicing')}</th>
              <th scope="col">{t('statements.lines.sepa')}</th>
              <th scope="col">{t('statements.columns.counterparty')}</th>
              <th scope="col">{t('statements.columns.description')}</th>
              <th scope="col">{t('statements.lines.status')}</th>
              <th scope="col">{t('statements.lines.suggestion')}</th>
            </tr>
          </thead>
          <tbody className="data-table-body" style={{ height: virtualizer.getTotalSize() }}>
            {items.map((item) => {
              const row = rows[item.index];
              if (!row) return null;
              return (
                <tr
                  key={row.id}
                  aria-rowindex={item.index + 2}
                  aria-selected={selected.has(row.id)}
                  data-active={active === item.index || undefined}
                  data-line={row.lineNumber}
                  data-status={row.status}
                  className="data-table-row data-table-body-row"
                  style={{
                    gridTemplateColumns: COLUMNS,
                    height: ROW_HEIGHT,
                    transform: `translateY(${item.start}px)`,
                  }}
                  // The active row holds the focus: a dialog opened on it gives focus back to it.
                  tabIndex={-1}
                  onClick={() => cursor.activate(item.index)}
                >
                  <td>{row.lineNumber}</td>
                  <td>{formatDate(row.bankDate, locale)}</td>
                  <td className="money">{money(row.bankAmountCents)}</td>
                  <td>
                    <ProviderCell row={row} />
                  </td>
                  <td>
                    <InvoicingCell row={row} />
                  </td>
                  <td title={row.sepa?.label}>
                    <SideCell value={row.sepa} row={row} testId="sepa" />
                  </td>
                  <td>{row.counterpartyName ?? '—'}</td>
                  <td title={row.notes ? `${row.description}\n${row.notes}` : row.description}>
                    {row.description}
                  </td>
                  <td>
                    <Pill tone={STATUS_TONES[row.status]}>{t(`statements.status.${row.status}`)}</Pill>
                  </td>
                  {row.suggestion ? (
                    <td data-testid="suggestion">
                      {row.suggestion.label} ·{' '}
                      {t('statements.lines.score', { score: scorePoints(row.suggestion.score) })}{' '}
                      <span className="suggestion-why" data-testid="suggestion-why">
                        {t('statements.lines.why', { reasons: suggestionWhy(t, row.suggestion) })}
                      </span>
                    </td>
                  ) : (
                    <td>{row.matches.map((m) => m.label).join(', ') || '—'}</td>
                  )}
                </tr>
              );
            })}
          </tbody>
        </table>
        {query.error ? (
          <div className="data-table-status screen-error" role="alert">
            {t(errorCodeKey((query.error as { code?: string }).code ?? '') ?? 'errorMessages.fallback')}
          </div>
        ) : query.isPending || rows.length === 0 ? (
          <div className="data-table-status" role="status">
            {query.isPending ? t('statements.lines.loading') : t('statements.lines.empty')}
          </div>
        ) : null}
      </ScrollRegion>
      {machine.matches('confirming') && machine.context.confirm?.totals ? (
        <BulkConfirm
          scope={machine.context.confirm.scope}
          totals={machine.context.confirm.totals}
          onConfirm={(note) => actor.send({ type: 'bulkConfirm', idempotencyKey: crypto.randomUUID(), note })}
          onClose={() => actor.send({ type: 'bulkCancel' })}
        />
      ) : null}
      {dialog ? (
        <LineDialogs
          dialog={dialog}
          onAct={(action) => {
            act(action);
            setDialog(null);
          }}
          onClose={() => setDialog(null)}
        />
      ) : null}
    </section>
  );
}

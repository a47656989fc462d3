import { useMemo } from 'react';
import { CASE_SEARCH_MAX } from '../../../contract/limits';
import { CASE_STATUSES, CASE_TYPES } from '../../../domain/case-status';
import { type CaseItem, fetchCases } from '../../api/cases';
import {
  type DataColumn,
  type DataFilter,
  DataTable,
  type PageRequest,
} from '../../components/DataTable/DataTable';
import { useI18n } from '../../i18n/i18n';
import { CASES_TABLE_KEY } from './cache-keys';
import { CASE_STATUS_KEYS, CASE_TYPE_KEYS, formatDate, formatDateTime, formatPrice, shortId } from './format';
import { StatusBadge } from './StatusBadge';

/** Price bounds offered as choices: the product's case prices (free, 5 to 30, default 15) and the subscription's 49. */
/** A case's dates, each filtered as one period over the API's `…From`/`…To` parameters. */
const DATE_RANGES = [
  ['created', 'cases.filters.created'],
  ['start', 'cases.filters.start'],
  ['end', 'cases.filters.end'],
] as const;

const getRowId = (item: CaseItem) => item.id;
const rowHref = (item: CaseItem) => `/chat/${item.id}`;
const fetchPage = ({ q, filters, sort, order, cursor, limit }: PageRequest) =>
  fetchCases({ ...filters, q, sort, order, cursor, limit });

export interface CasesTableProps {
  /** Names the table, so each place keeps its own column choice. */
  id: string;
  /** Filters the place itself imposes (one patient's or one doctor's cases). */
  fixedFilters?: Readonly<Record<string, readonly string[]>>;
  /** Inside a detail page: no cases at all is one line (DataTable's `collapseWhenEmpty`). */
  collapseWhenEmpty?: boolean;
}

/** The one cases table: the /cases screen and the single patient and doctor views embed it. */
export function CasesTable({ id, fixedFilters, collapseWhenEmpty }: CasesTableProps) {
  const { t, locale } = useI18n();

  const columns = useMemo<DataColumn<CaseItem>[]>(() => {
    const date = (iso: string | null) => (iso ? formatDate(iso, locale) : '—');
    return [
      {
        id: 'id',
        header: t('cases.columns.id'),
        width: '7rem',
        hideable: false,
        cell: (c) => <code>{shortId(c.id)}</code>,
      },
      {
        id: 'status',
        header: t('cases.columns.status'),
        width: '14rem',
        sort: 'status',
        cell: (c) => <StatusBadge status={c.status} />,
      },
      { id: 'type', header: t('cases.columns.type'), width: '8rem', cell: (c) => t(CASE_TYPE_KEYS[c.type]) },
      {
        id: 'customer',
        header: t('cases.columns.customer'),
        sort: 'customerName',
        cell: (c) => c.customer.name,
      },
      {
        id: 'professional',
        header: t('cases.columns.professional'),
        sort: 'professionalName',
        cell: (c) => c.professional.name,
      },
      {
        id: 'price',
        header: t('cases.columns.price'),
        width: '7rem',
        sort: 'priceCents',
        firstOrder: 'desc',
        cell: (c) => formatPrice(c.priceCents, c.currency, locale),
      },
      {
        id: 'totalMessages',
        header: t('cases.columns.totalMessages'),
        width: '7rem',
        sort: 'totalMessages',
        firstOrder: 'desc',
        cell: (c) => c.totalMessages,
      },
      {
        id: 'createdAt',
        header: t('cases.columns.createdAt'),
        width: '11rem',
        sort: 'createdAt',
        firstOrder: 'desc',
        cell: (c) => formatDateTime(c.createdAt, locale),
      },
      {
        id: 'startDate',
        header: t('cases.columns.startDate'),
        width: '8rem',
        sort: 'startDate',
        firstOrder: 'desc',
        cell: (c) => date(c.startDate),
      },
      {
        id: 'endDate',
        header: t('cases.columns.endDate'),
        width: '8rem',
        sort: 'endDate',
        firstOrder: 'desc',
        cell: (c) => date(c.endDate),
      },
    ];
  }, [t, locale]);

  const filters = useMemo<DataFilter[]>(() => {
    return [
      {
        key: 'status',
        label: t('cases.columns.status'),
        kind: 'multi',
        options: CASE_STATUSES.map((s) => ({ value: s, label: t(CASE_STATUS_KEYS[s]) })),
      },
      {
        key: 'closed',
        label: t('cases.filters.closed'),
        kind: 'select',
        options: [
          { value: 'false', label: t('cases.filters.open') },
          { value: 'true', label: t('cases.filters.closedOnly') },
        ],
      },
      {
        key: 'type',
        label: t('cases.columns.type'),
        kind: 'select',
        options: CASE_TYPES.map((type) => ({ value: type, label: t(CASE_TYPE_KEYS[type]) })),
      },
      { key: 'priceMinCents', label: t('cases.filters.priceMin'), kind: 'amount' },
      { key: 'priceMaxCents', label: t('cases.filters.priceMax'), kind: 'amount' },
      ...DATE_RANGES.map(
        ([key, label]): DataFilter => ({
          key,
          label: t(label),
          kind: 'dateRange',
          from: `${key}From`,
          to: `${key}To`,
        }),
      ),
    ];
  }, [t]);

  return (
    <DataTable
      id={id}
      label={t('routes.cases')}
      columns={columns}
      queryKey={CASES_TABLE_KEY}
      fetchPage={fetchPage}
      getRowId={getRowId}
      rowHref={rowHref}
      filters={filters}
      {...(fixedFilters ? { fixedFilters } : {})}
      {...(collapseWhenEmpty ? { collapseWhenEmpty } : {})}
      defaultSort={{ sort: 'createdAt', order: 'desc' }}
      searchMaxLength={CASE_SEARCH_MAX}
    />
  );
}

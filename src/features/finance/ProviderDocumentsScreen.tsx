import { useMemo } from 'react';
import { PROVIDER_DOCUMENT_KINDS, type ProviderDocumentKind } from '../../../contract/statuses';
import { fetchProviderDocuments, monthCloseKeys, type ProviderDocument } from '../../api/month-close';
import {
  type DataColumn,
  type DataFilter,
  DataTable,
  type PageRequest,
} from '../../components/DataTable/DataTable';
import { Pill } from '../../components/Pill/Pill';
import { useI18n } from '../../i18n/i18n';
import { formatDate } from '../../kernel/dates';
import './finance-messages';
import { formatMoney, formatMonth, recentMonths } from './format';

/** Each kind's words: its name, and its matched and unmatched states. */
const KIND_WORDS: Record<ProviderDocumentKind, { name: string; matched: string; unmatched: string }> = {
  PAYOUT: {
    name: 'providerDocuments.kind.PAYOUT',
    matched: 'providerDocuments.state.PAYOUT.matched',
    unmatched: 'providerDocuments.state.PAYOUT.unmatched',
  },
  INVOICE: {
    name: 'providerDocuments.kind.INVOICE',
    matched: 'providerDocuments.state.INVOICE.matched',
    unmatched: 'providerDocuments.state.INVOICE.unmatched',
  },
};

const rowId = (row: ProviderDocument) => row.id;
const addDays = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
/**
 * Enter opens the bank lines that could pay it: its amount as the bank books it (a payout arrives, a bill
 * leaves — the reconciliation's counterpart view) within the week after its date, matched or not.
 */
const rowHref = (row: ProviderDocument) => {
  const cents = row.kind === 'PAYOUT' ? row.amountCents : -row.amountCents;
  return `/statements?from=${row.date}&to=${addDays(row.date, 7)}&minCents=${cents}&maxCents=${cents}`;
};
const fetchPage = ({ filters, cursor, limit }: PageRequest) =>
  fetchProviderDocuments({
    ...filters,
    // Without a kind in the URL, the invoices: the home card's and the month's usual question.
    kind: (filters.kind as ProviderDocumentKind | undefined) ?? 'INVOICE',
    cursor,
    limit,
  });

/**
 * `/provider-documents`: the payment provider's payouts and the invoicing program's invoices, newest
 * first, by month and matched or not — what the month-close rows and the home card "invoices with no
 * paid settlement" open (decision 0155).
 */
export default function ProviderDocumentsScreen() {
  const { t, locale } = useI18n();
  const columns = useMemo<DataColumn<ProviderDocument>[]>(
    () => [
      {
        id: 'label',
        header: t('providerDocuments.columns.label'),
        hideable: false,
        cell: (d) => <code>{d.label}</code>,
      },
      {
        id: 'kind',
        header: t('providerDocuments.columns.kind'),
        width: '10rem',
        cell: (d) => t(KIND_WORDS[d.kind].name),
      },
      {
        id: 'date',
        header: t('providerDocuments.columns.date'),
        width: '8rem',
        cell: (d) => formatDate(d.date, locale),
      },
      {
        id: 'amount',
        header: t('providerDocuments.columns.amount'),
        width: '9rem',
        cell: (d) => formatMoney(d.amountCents, locale),
      },
      {
        id: 'matched',
        header: t('providerDocuments.columns.matched'),
        width: '14rem',
        cell: (d) => (
          <Pill tone={d.matched ? 'success' : 'waiting'}>
            {t(KIND_WORDS[d.kind][d.matched ? 'matched' : 'unmatched'])}
          </Pill>
        ),
      },
    ],
    [t, locale],
  );
  const filters = useMemo<DataFilter[]>(
    () => [
      {
        key: 'kind',
        label: t('providerDocuments.columns.kind'),
        kind: 'select',
        options: PROVIDER_DOCUMENT_KINDS.map((kind) => ({
          value: kind,
          label: t(KIND_WORDS[kind].name),
        })),
      },
      {
        key: 'month',
        label: t('providerDocuments.filters.month'),
        kind: 'select',
        options: recentMonths().map((m) => ({ value: m, label: formatMonth(m, locale) })),
      },
      {
        key: 'matched',
        label: t('providerDocuments.columns.matched'),
        kind: 'select',
        options: [
          { value: 'true', label: t('providerDocuments.filters.matched') },
          { value: 'false', label: t('providerDocuments.filters.unmatched') },
        ],
      },
    ],
    [t, locale],
  );
  return (
    <DataTable
      id="provider-documents"
      label={t('routes.providerDocuments')}
      columns={columns}
      queryKey={monthCloseKeys.documents}
      fetchPage={fetchPage}
      getRowId={rowId}
      rowHref={rowHref}
      filters={filters}
      searchable={false}
    />
  );
}

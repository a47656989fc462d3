import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef, useSyncExternalStore } from 'react';
import { formatCents } from '../../../domain/money';
import type { SourceKind } from '../../../domain/sources/source-ids';
import { isPayoutWithdrawn } from '../../../domain/sources/stripe-balance-payouts';
import type { KnownSourceRow } from '../../api/sources';
import { ScrollRegion } from '../../components/DataTable/ScrollRegion';
import { useI18n } from '../../i18n/i18n';
import { formatDate, formatDateTime } from '../../kernel/dates';
import type { SourcePreviewRows } from './preview-client';
import type {
  InvoicePreviewRow,
  PayoutPreviewRow,
  SourcePreviewRow,
  StatedPayoutPreviewRow,
} from './preview-protocol';
import { PAYOUT_STATUS_WORDS, ROW_KIND_WORDS, STATUS_WORDS } from './source-words';

const ROW_HEIGHT = 28;
const OVERSCAN = 10;
/** Line, payout, date, kind, gross, fee, net, payment, imported. */
const PAYOUT_COLUMNS = '4rem minmax(0, 1.4fr) 6.5rem 7rem 7rem 6.5rem 7rem minmax(0, 1.4fr) minmax(0, 1.4fr)';
/** Line, payout, date, arrival, status, amount, imported. */
const STATED_COLUMNS = '4rem minmax(0, 1.4fr) 6.5rem 6.5rem minmax(0, 1.4fr) 7rem minmax(0, 1.4fr)';
/** Line, document, type, status, date, customer, net, VAT, total, imported. */
const INVOICE_COLUMNS = '4rem minmax(0, 1.2fr) 7rem 6.5rem 6.5rem 7.5rem 7rem 6.5rem 7rem minmax(0, 1.4fr)';

const PAYOUT_HEADERS = [
  'sources.preview.line',
  'sources.preview.payout',
  'sources.preview.date',
  'sources.preview.kind',
  'sources.preview.gross',
  'sources.preview.fee',
  'sources.preview.net',
  'sources.preview.reference',
  'sources.preview.imported',
];
const STATED_HEADERS = [
  'sources.preview.line',
  'sources.preview.payout',
  'sources.preview.date',
  'sources.preview.arrival',
  'sources.preview.payoutStatus',
  'sources.preview.amount',
  'sources.preview.imported',
];

const INVOICE_HEADERS = [
  'sources.preview.line',
  'sources.preview.invoiceNo',
  'sources.preview.type',
  'sources.preview.status',
  'sources.preview.date',
  'sources.preview.customer',
  'sources.preview.netTotal',
  'sources.preview.tax',
  'sources.preview.grossTotal',
  'sources.preview.imported',
];

/** Each layout's columns and headers: a payout report's rows, the payouts a Balance report states, documents. */
const LAYOUTS = {
  payouts: { columns: PAYOUT_COLUMNS, headers: PAYOUT_HEADERS },
  stated: { columns: STATED_COLUMNS, headers: STATED_HEADERS },
  invoices: { columns: INVOICE_COLUMNS, headers: INVOICE_HEADERS },
};
export type SourcePreviewLayout = keyof typeof LAYOUTS;

export const previewLayoutOf = (kind: SourceKind): SourcePreviewLayout =>
  kind === 'SAFT_INVOICES' ? 'invoices' : kind === 'STRIPE_BALANCE_PAYOUTS' ? 'stated' : 'payouts';

type Cell = [value: string, isMoney: boolean];

const isStatedRow = (row: SourcePreviewRow): row is StatedPayoutPreviewRow => 'expectedArrivalDate' in row;
const isPayoutRow = (row: SourcePreviewRow): row is PayoutPreviewRow =>
  'payoutId' in row && !isStatedRow(row);

/**
 * Every row of the file being previewed, virtualised (100,000 rows keep a few dozen row elements in the
 * page): a payout report's rows with their payout, kind and gross/fee/net, or a SAF-T file's documents
 * with type, status and totals; each with whether the server already holds it, and from which file.
 */
export function SourcePreviewTable({
  rows,
  layout,
  known,
}: {
  rows: SourcePreviewRows;
  /** Payout rows (a Stripe or collector report), stated payouts (Stripe's Balance report) or documents (SAF-T). */
  layout: SourcePreviewLayout;
  known: ReadonlyMap<string, KnownSourceRow> | null;
}) {
  const { t, locale } = useI18n();
  useSyncExternalStore(rows.subscribe, rows.getVersion);
  const scrollRef = useRef<HTMLElement>(null);
  const count = rows.count;
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: OVERSCAN,
  });
  const money = (cents: number, currency = 'EUR') => formatCents(cents, locale, currency);
  const { columns, headers } = LAYOUTS[layout];
  const imported = (id: string | undefined): string => {
    if (known === null) return '…';
    const earlier = id === undefined ? undefined : known.get(id);
    return earlier
      ? t('sources.preview.importedFrom', {
          file: earlier.fileName,
          at: formatDateTime(earlier.importedAt, locale),
        })
      : t('sources.preview.new');
  };
  // Each cell with whether it is an amount (aligned as money).
  const payoutCells = (row: PayoutPreviewRow): Cell[] => [
    [row.payoutId, false],
    [formatDate(row.date, locale), false],
    [row.kind ? t(ROW_KIND_WORDS[row.kind]) : '—', false],
    [money(row.grossCents, row.currency), true],
    [money(row.feeCents, row.currency), true],
    [money(row.netCents, row.currency), true],
    [row.reference ?? '—', false],
  ];
  const statedCells = (row: StatedPayoutPreviewRow): Cell[] => [
    [row.payoutId, false],
    [formatDate(row.date, locale), false],
    [formatDate(row.expectedArrivalDate, locale), false],
    [t(PAYOUT_STATUS_WORDS[row.status]), false],
    [money(row.amountCents, row.currency), true],
  ];
  const invoiceCells = (row: InvoicePreviewRow): Cell[] => [
    [row.invoiceNo, false],
    [row.crediting ? t('sources.preview.creditNote', { type: row.type }) : row.type, false],
    [t(STATUS_WORDS[row.status as keyof typeof STATUS_WORDS] ?? row.status), false],
    [formatDate(row.date, locale), false],
    [row.customerTaxId, false],
    [money(row.netCents), true],
    [money(row.taxCents), true],
    [money(row.grossCents), true],
  ];
  return (
    <ScrollRegion
      ref={scrollRef}
      className="statement-preview-scroll"
      label={t('sources.preview.tableLabel')}
    >
      <table
        className="data-table-grid statement-preview"
        aria-label={t('sources.preview.tableLabel')}
        aria-rowcount={count + 1}
        data-testid="source-preview"
      >
        <thead className="data-table-head">
          <tr className="data-table-row" style={{ gridTemplateColumns: columns, height: ROW_HEIGHT }}>
            {headers.map((header) => (
              <th key={header} scope="col">
                {t(header)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="data-table-body" style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((item) => {
            const row = rows.entry(item.index);
            if (!row) return null;
            const id = rows.keys[item.index];
            const cells = isStatedRow(row)
              ? statedCells(row)
              : isPayoutRow(row)
                ? payoutCells(row)
                : invoiceCells(row);
            return (
              <tr
                key={item.index}
                aria-rowindex={item.index + 2}
                className="data-table-row data-table-body-row"
                data-known={known?.has(id ?? '') ? true : undefined}
                data-withdrawn={isStatedRow(row) && isPayoutWithdrawn(row.status) ? true : undefined}
                style={{
                  gridTemplateColumns: columns,
                  height: ROW_HEIGHT,
                  transform: `translateY(${item.start}px)`,
                }}
              >
                <td>{row.line}</td>
                {cells.map(([value, isMoney], index) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: the columns are fixed positions
                  <td key={index} className={isMoney ? 'money' : undefined} title={value}>
                    {value}
                  </td>
                ))}
                <td>{imported(id)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </ScrollRegion>
  );
}

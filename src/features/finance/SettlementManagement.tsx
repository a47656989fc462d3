import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { SETTLEMENT_STATUSES } from '../../../domain/settlement-status';
import { fetchSettlements, invoiceDownloadUrl, type SettlementItem, settlementKeys } from '../../api/finance';
import { bulkDeleteSettlements, type SettlementBulkDeleteResult } from '../../api/settlement-manage';
import { useConfirmation } from '../../components/ConfirmDialog/ConfirmDialog';
import {
  type DataColumn,
  type DataFilter,
  DataTable,
  type PageRequest,
} from '../../components/DataTable/DataTable';
import { BulkResult } from '../../components/EntityActions/BulkResult';
import { Pill } from '../../components/Pill/Pill';
import { useI18n } from '../../i18n/i18n';
import { pluralKey } from '../../i18n/plural';
import { notify } from '../../kernel/toast';
import {
  formatMoney,
  formatMonth,
  recentMonths,
  SETTLEMENT_STATUS_KEYS,
  SETTLEMENT_STATUS_TONES,
  shortId,
} from './format';
import { SettlementEditor } from './SettlementEditor';
import { refreshSettlements } from './settlement-actions';

const rowId = (row: SettlementItem) => row.id;
const fetchPage = ({ filters, sort, order, cursor, limit }: PageRequest) =>
  fetchSettlements({ ...filters, sort, order, cursor, limit });

/** "Settlement management": every settlement, filtered; `x` selects rows for a bulk delete, "Manage" opens one. */
export function SettlementManagement() {
  const { t, locale } = useI18n();
  const [open, setOpen] = useState<SettlementItem | null>(null);
  const [bulkResult, setBulkResult] = useState<{
    rows: SettlementItem[];
    result: SettlementBulkDeleteResult;
  } | null>(null);
  const bulk = useBulkDelete(setBulkResult);

  const columns = useMemo<DataColumn<SettlementItem>[]>(
    () => [
      {
        id: 'doctor',
        header: t('finance.columns.doctor'),
        hideable: false,
        cell: (s) => s.professionalName,
      },
      {
        id: 'month',
        header: t('finance.columns.month'),
        width: '10rem',
        sort: 'referenceMonth',
        cell: (s) => formatMonth(s.referenceMonth, locale),
      },
      {
        id: 'status',
        header: t('finance.columns.status'),
        width: '9rem',
        cell: (s) => (
          <Pill tone={SETTLEMENT_STATUS_TONES[s.status]}>{t(SETTLEMENT_STATUS_KEYS[s.status])}</Pill>
        ),
      },
      {
        id: 'case',
        header: t('finance.columns.case'),
        width: '6rem',
        cell: (s) => shortId(s.caseId ?? s.id),
      },
      {
        id: 'gross',
        header: t('finance.columns.gross'),
        width: '7rem',
        cell: (s) => formatMoney(s.grossCents, locale),
      },
      {
        id: 'net',
        header: t('finance.columns.net'),
        width: '7rem',
        cell: (s) => formatMoney(s.netCents, locale),
      },
      {
        id: 'payable',
        header: t('finance.columns.payable'),
        width: '8rem',
        sort: 'payable',
        cell: (s) => formatMoney(s.payableCents, locale),
      },
      {
        id: 'invoice',
        header: t('settlementAdmin.columns.invoice'),
        width: '5rem',
        cell: (s) =>
          s.hasInvoice ? (
            <a href={invoiceDownloadUrl(s.id)} download>
              {t('settlementAdmin.yes')}
            </a>
          ) : (
            t('settlementAdmin.no')
          ),
      },
      { id: 'notes', header: t('settlementAdmin.columns.notes'), cell: (s) => s.notes ?? '' },
      {
        id: 'actions',
        header: t('settlementAdmin.columns.actions'),
        width: '6rem',
        hideable: false,
        cell: (s) => (
          <button type="button" data-testid={`manage-${s.id}`} onClick={() => setOpen(s)}>
            {t('settlementAdmin.manage')}
          </button>
        ),
      },
    ],
    [t, locale],
  );
  const filters = useMemo<DataFilter[]>(
    () => [
      {
        key: 'status',
        label: t('finance.columns.status'),
        kind: 'multi',
        options: SETTLEMENT_STATUSES.map((s) => ({ value: s, label: t(SETTLEMENT_STATUS_KEYS[s]) })),
      },
      {
        key: 'referenceMonth',
        label: t('finance.filters.month'),
        kind: 'select',
        options: recentMonths().map((m) => ({ value: m, label: formatMonth(m, locale) })),
      },
      { key: 'professionalId', label: t('settlementAdmin.filters.doctor'), kind: 'text' },
      { key: 'caseId', label: t('settlementAdmin.filters.case'), kind: 'text' },
      { key: 'payableMinCents', label: t('settlementAdmin.filters.payableMin'), kind: 'amount' },
      { key: 'payableMaxCents', label: t('settlementAdmin.filters.payableMax'), kind: 'amount' },
      {
        key: 'hasInvoice',
        label: t('settlementAdmin.filters.hasInvoice'),
        kind: 'select',
        options: [
          { value: 'true', label: t('settlementAdmin.yes') },
          { value: 'false', label: t('settlementAdmin.no') },
        ],
      },
      {
        key: 'customerInvoiced',
        label: t('settlementAdmin.filters.customerInvoiced'),
        kind: 'select',
        options: [
          { value: 'true', label: t('settlementAdmin.yes') },
          { value: 'false', label: t('settlementAdmin.no') },
        ],
      },
    ],
    [t, locale],
  );

  return (
    <>
      {open ? <SettlementEditor settlement={open} onChange={setOpen} onClose={() => setOpen(null)} /> : null}
      {bulkResult ? <BulkDeleteResult {...bulkResult} /> : null}
      {bulk.dialog}
      <DataTable
        id="settlement-manage"
        label={t('settlementAdmin.tabs.manage')}
        columns={columns}
        queryKey={settlementKeys.list}
        fetchPage={fetchPage}
        getRowId={rowId}
        filters={filters}
        searchable={false}
        defaultSort={{ sort: 'created', order: 'desc' }}
        bulkActions={(rows, clear) => (
          <button type="button" className="danger" onClick={() => bulk.run(rows, clear)}>
            {t(
              pluralKey(locale, rows.length, {
                one: 'settlementAdmin.bulkDelete_one',
                other: 'settlementAdmin.bulkDelete_other',
              }),
              { count: rows.length },
            )}
          </button>
        )}
      />
    </>
  );
}

/** The selection's delete, through the one confirmation (with the count); each row's outcome is kept. */
function useBulkDelete(
  show: (outcome: { rows: SettlementItem[]; result: SettlementBulkDeleteResult }) => void,
) {
  const { t, locale } = useI18n();
  const queryClient = useQueryClient();
  const { ask, dialog } = useConfirmation();
  const run = (rows: SettlementItem[], clear: () => void) =>
    ask({
      title: t(
        pluralKey(locale, rows.length, {
          one: 'settlementAdmin.bulkDeleteTitle_one',
          other: 'settlementAdmin.bulkDeleteTitle_other',
        }),
        { count: rows.length },
      ),
      message: t(
        pluralKey(locale, rows.length, {
          one: 'settlementAdmin.bulkDeleteMessage_one',
          other: 'settlementAdmin.bulkDeleteMessage_other',
        }),
        { count: rows.length },
      ),
      confirmLabel: t('settlementAdmin.delete'),
      danger: true,
      action: () => bulkDeleteSettlements(rows.map((row) => row.id)),
      onDone: (answer) => {
        const result = answer as SettlementBulkDeleteResult;
        show({ rows, result });
        clear();
        refreshSettlements(queryClient);
        notify(
          'success',
          t(
            pluralKey(locale, rows.length, {
              one: 'settlementAdmin.bulkDeleted_one',
              other: 'settlementAdmin.bulkDeleted_other',
            }),
            { deleted: result.deleted.length, count: rows.length },
          ),
        );
      },
    });
  return { run, dialog };
}

/** What the bulk delete did to each selected row: deleted, or the translated reason it stayed. */
function BulkDeleteResult({ rows, result }: { rows: SettlementItem[]; result: SettlementBulkDeleteResult }) {
  const { t, locale } = useI18n();
  const refused = new Map(result.refused.map((r) => [r.settlementId, r.code]));
  return (
    <BulkResult
      title={t('settlementAdmin.bulkResult')}
      doneLabel={t('settlementAdmin.bulkRowDeleted')}
      rows={rows.map((row) => ({
        id: row.id,
        label: `${row.professionalName} — ${formatMonth(row.referenceMonth, locale)} — ${formatMoney(row.payableCents, locale)}`,
        refusedCode: refused.get(row.id) ?? null,
      }))}
    />
  );
}

import { useMemo } from 'react';
import { type BlockedDoctor, fetchBlockedDoctors, sepaKeys } from '../../api/sepa';
import { type DataColumn, DataTable } from '../../components/DataTable/DataTable';
import { useI18n } from '../../i18n/i18n';
import { formatDateTime } from '../../kernel/dates';
import { bankReason } from './sepa-format';

const BLOCKED_BY_KEYS: Record<BlockedDoctor['blockedBy'], string> = {
  STATUS_REPORT: 'sepa.blocked.by.STATUS_REPORT',
  RETURN: 'sepa.blocked.by.RETURN',
};

const rowId = (row: BlockedDoctor) => row.professionalId;
const rowHref = (row: BlockedDoctor) => `/professionals/${row.professionalId}`;
// Every blocked doctor comes in one page: its total is the home card's number.
const fetchPage = () => fetchBlockedDoctors();

/**
 * "Blocked payouts" (decision 0143): each doctor whose payouts are blocked now, why (the bank's reason,
 * the IBAN it refused, the transfer, and whether a status report or a return made the block); Enter
 * opens the doctor, where a new IBAN lifts it.
 */
export function BlockedPayouts() {
  const { t, locale } = useI18n();
  const columns = useMemo<DataColumn<BlockedDoctor>[]>(
    () => [
      {
        id: 'doctor',
        header: t('sepa.blocked.doctor'),
        hideable: false,
        width: 'minmax(9rem, 0.8fr)',
        cell: (d) => d.name,
      },
      {
        id: 'reason',
        header: t('sepa.blocked.reason'),
        width: 'minmax(11rem, 1fr)',
        cell: (d) => bankReason(t, d.block.reasonCode, d.block.reasonText),
      },
      {
        id: 'iban',
        header: t('sepa.blocked.iban'),
        width: '17rem',
        cell: (d) => <code>{d.block.blockedIban}</code>,
      },
      {
        id: 'blockedBy',
        header: t('sepa.blocked.blockedBy'),
        width: '11rem',
        cell: (d) => t(BLOCKED_BY_KEYS[d.blockedBy]),
      },
      {
        id: 'blockedAt',
        header: t('sepa.blocked.blockedAt'),
        width: '11rem',
        cell: (d) => formatDateTime(d.block.blockedAt, locale),
      },
      {
        id: 'transfer',
        header: t('sepa.columns.endToEndId'),
        width: '13rem',
        cell: (d) => (d.block.endToEndId ? <code>{d.block.endToEndId}</code> : '—'),
      },
      {
        id: 'msgId',
        header: t('sepa.columns.msgId'),
        width: '13rem',
        cell: (d) => (d.block.msgId ? <code>{d.block.msgId}</code> : '—'),
      },
    ],
    [t, locale],
  );
  return (
    <DataTable
      id="sepa-blocked"
      label={t('sepa.tabs.blocked')}
      columns={columns}
      queryKey={sepaKeys.blocked}
      fetchPage={fetchPage}
      getRowId={rowId}
      rowHref={rowHref}
      searchable={false}
    />
  );
}

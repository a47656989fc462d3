import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useLocation, useSearch } from 'wouter';
import { CASES_TO_PROCESS_SEARCH_MAX } from '../../../contract/limits';
import {
  fetchProfessionalSettlements,
  type ProfessionalSettlement,
  type ProfessionalSettlements,
  settlementKeys,
} from '../../api/finance';
import { fetchUser, userKeys } from '../../api/users';
import {
  backToTable,
  type DataColumn,
  type DataFilter,
  DataTable,
  type PageRequest,
} from '../../components/DataTable/DataTable';
import { useI18n } from '../../i18n/i18n';
import { pluralKey } from '../../i18n/plural';
import { useScreenKeyHandler } from '../../kernel/key-dispatcher';
import { formatMoney, formatMonth, MISSING_FIELD_KEYS, recentMonths } from './format';
import { SettleNotice, SettlePanel, useSettlementActor } from './SettlePanel';

const rowId = (row: ProfessionalSettlement) => `${row.professionalId}:${row.referenceMonth}`;
export const settleHref = (professionalId: string, referenceMonth: string) =>
  `/settlement?tab=process&doctor=${encodeURIComponent(professionalId)}&month=${encodeURIComponent(referenceMonth)}`;
const rowHref = (row: ProfessionalSettlement) => settleHref(row.professionalId, row.referenceMonth);

/** A page of doctor-months (keyset, `limit` at a time); every page carries the totals of them all. */
function fetchPage({ q, filters, cursor, limit }: PageRequest): Promise<ProfessionalSettlements> {
  const month = filters.referenceMonth?.[0];
  return fetchProfessionalSettlements({
    ...(q ? { q } : {}),
    ...(month ? { referenceMonth: month } : {}),
    ...(cursor ? { cursor } : {}),
    limit,
  });
}

/** The sums over every doctor of the list, not only the rows loaded so far, counted in settlements as the
 * home card that opens this list counts them. */
function Totals({ totals }: { totals: ProfessionalSettlements['totals'] }) {
  const { t, locale } = useI18n();
  return (
    <output className="data-table-total" data-testid="settlement-process-totals">
      {t(
        pluralKey(locale, totals.settlementCount, {
          one: 'finance.process.totals_one',
          other: 'finance.process.totals_other',
        }),
        {
          settlements: totals.settlementCount,
          gross: formatMoney(totals.grossCents, locale),
          fee: formatMoney(totals.feeCents, locale),
          net: formatMoney(totals.netCents, locale),
          payable: formatMoney(totals.payableCents, locale),
        },
      )}
    </output>
  );
}

/** "Cases to process": the doctors with settlements waiting, per month; Enter opens one to settle. */
export function CasesToProcess() {
  const { t, locale } = useI18n();
  const search = useSearch();
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const params = new URLSearchParams(search);
  const doctor = params.get('doctor');
  const month = params.get('month');

  const rowOf = useCallback((): ProfessionalSettlement | undefined => {
    for (const [, data] of queryClient.getQueriesData<{ pages: { items: ProfessionalSettlement[] }[] }>({
      queryKey: settlementKeys.toProcess(null),
    }))
      for (const page of data?.pages ?? [])
        for (const row of page.items)
          if (row.professionalId === doctor && row.referenceMonth === month) return row;
    return undefined;
  }, [queryClient, doctor, month]);
  // A deep link or a reload has no list rows cached: the doctor's own record names them (issue 29 point 2).
  const listed = rowOf();
  const record = useQuery({
    queryKey: userKeys.detail(doctor ?? ''),
    queryFn: () => fetchUser(doctor ?? ''),
    enabled: doctor !== null && listed === undefined,
  });
  const resolvedName = listed
    ? (listed.fullName ?? listed.professionalName)
    : record.data && (record.data.fullName ?? record.data.name);
  const nameNow = useRef(resolvedName);
  nameNow.current = resolvedName;
  // Never the id: an ellipsis until the name arrives.
  const doctorName = () => nameNow.current ?? '…';
  const actor = useSettlementActor(doctorName);

  useEffect(() => {
    if (doctor && month) actor.send({ type: 'doctor.select', professionalId: doctor, referenceMonth: month });
    else actor.send({ type: 'doctor.clear' });
  }, [actor, doctor, month]);

  // Without a doctor, `c` (confirm) can only say what is missing: 'Select one Doctor ID'.
  useScreenKeyHandler((event) => {
    if (doctor || event.key !== 'c') return false;
    actor.send({ type: 'settle.request' });
    return true;
  });

  const columns = useMemo<DataColumn<ProfessionalSettlement>[]>(
    () => [
      {
        id: 'doctor',
        header: t('finance.columns.doctor'),
        hideable: false,
        cell: (r) => r.fullName ?? r.professionalName,
      },
      {
        id: 'month',
        header: t('finance.columns.month'),
        // "Mês de referência" whole at 1440 px (it was cut to "Mês de referê…").
        width: '12rem',
        cell: (r) => formatMonth(r.referenceMonth, locale),
      },
      // Settlements, not cases: a subscription's settlement has no case, and the doctor's month, the
      // home card and the totals all count settlements (issue 29 point 7).
      {
        id: 'settlements',
        header: t('finance.columns.settlements'),
        width: '8rem',
        cell: (r) => r.settlementCount,
      },
      {
        id: 'gross',
        header: t('finance.columns.gross'),
        width: '8rem',
        cell: (r) => formatMoney(r.grossCents, locale),
      },
      {
        id: 'fee',
        header: t('finance.columns.fee'),
        width: '8rem',
        cell: (r) => formatMoney(r.feeCents, locale),
      },
      {
        id: 'net',
        header: t('finance.columns.net'),
        width: '8rem',
        cell: (r) => formatMoney(r.netCents, locale),
      },
      {
        id: 'payable',
        header: t('finance.columns.payable'),
        width: '8rem',
        cell: (r) => formatMoney(r.payableCents, locale),
      },
      {
        id: 'missing',
        header: t('finance.columns.missing'),
        cell: (r) =>
          r.missingFields.length === 0
            ? t('finance.complete')
            : r.missingFields.map((f) => t(MISSING_FIELD_KEYS[f])).join(', '),
      },
    ],
    [t, locale],
  );
  const filters = useMemo<DataFilter[]>(
    () => [
      {
        key: 'referenceMonth',
        label: t('finance.filters.month'),
        kind: 'select',
        options: recentMonths().map((m) => ({ value: m, label: formatMonth(m, locale) })),
      },
    ],
    [t, locale],
  );

  if (doctor && month)
    return (
      <SettlePanel
        actor={actor}
        professionalId={doctor}
        referenceMonth={month}
        doctorName={doctorName()}
        onBack={() => backToTable(navigate, '/settlement?tab=process')}
      />
    );
  return (
    <>
      <p className="hint">{t('finance.process.hint')}</p>
      <SettleNotice actor={actor} />
      <DataTable
        id="settlement-process"
        label={t('finance.tabs.process')}
        columns={columns}
        queryKey={settlementKeys.toProcess(null)}
        fetchPage={fetchPage}
        getRowId={rowId}
        rowHref={rowHref}
        filters={filters}
        searchMaxLength={CASES_TO_PROCESS_SEARCH_MAX}
        summary={(first) => <Totals totals={first.totals} />}
      />
    </>
  );
}

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useActorRef, useSelector } from '@xstate/react';
import { useCallback, useMemo } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { fromPromise } from 'xstate';
import { sepaGenerationMachine } from '../../../machines/sepa-generation';
import { settlementKeys } from '../../api/finance';
import {
  dryRunSepa,
  fetchSepaToProcess,
  generateSepa,
  type SepaDoctorToProcess,
  type SepaDryRun,
  type SepaGenerated,
  sepaDownloadUrl,
  sepaKeys,
} from '../../api/sepa';
import { type DataColumn, DataTable, type PageRequest } from '../../components/DataTable/DataTable';
import { DEFAULT_PAGE_SIZE } from '../../components/DataTable/page-request';
import { errorCodeKey } from '../../i18n/error-codes';
import { useI18n } from '../../i18n/i18n';
import { pluralKey } from '../../i18n/plural';
import { formatDate } from '../../kernel/dates';
import { notify } from '../../kernel/toast';
import { FlowDialog } from './FlowDialog';
import { formatMoney, formatMonth, MISSING_FIELD_KEYS, recentMonths } from './format';

// Counted messages, one key per plural category (issue 29 point 9: never "1 transferências").
const CREATED = { one: 'sepa.generate.created_one', other: 'sepa.generate.created_other' };
const DRY_RUN = { one: 'sepa.process.dryRun_one', other: 'sepa.process.dryRun_other' };
const SUMMARY = { one: 'sepa.generate.summary_one', other: 'sepa.generate.summary_other' };
const TOTALS = { one: 'sepa.process.totals_one', other: 'sepa.process.totals_other' };
/** How long the header's first page answers the table's too: the two ask within one render. */
const FIRST_PAGE_SHARED_MS = 5_000;

import { bankReason, EXCLUSION_KEYS } from './sepa-format';

const rowId = (row: SepaDoctorToProcess) => row.professionalId;

/**
 * "Settlements to process": SETTLED settlements in no live file, per doctor; select → dry run → generate.
 * The month's doctors come a page at a time (decision 0145); the totals and the months are on every
 * page, and "all" is the server's selection (a dry run naming no doctor), never the rows loaded here.
 */
export function SepaToProcess() {
  const { t, locale } = useI18n();
  const queryClient = useQueryClient();
  const search = useSearch();
  const [location, navigate] = useLocation();
  const month = new URLSearchParams(search).get('month') ?? recentMonths()[1] ?? '';
  const firstPage = useCallback(
    () => fetchSepaToProcess({ referenceMonth: month, limit: DEFAULT_PAGE_SIZE }),
    [month],
  );
  // The header (totals, month picker) and the table's first page are one request.
  const toProcess = useQuery({
    queryKey: sepaKeys.toProcessFirstPage(month, DEFAULT_PAGE_SIZE),
    queryFn: firstPage,
  });
  const fetchPage = useCallback(
    ({ cursor, limit }: PageRequest) =>
      cursor === null && limit === DEFAULT_PAGE_SIZE
        ? queryClient.fetchQuery({
            queryKey: sepaKeys.toProcessFirstPage(month, limit),
            queryFn: firstPage,
            staleTime: FIRST_PAGE_SHARED_MS,
          })
        : fetchSepaToProcess({ referenceMonth: month, limit, cursor }),
    [queryClient, month, firstPage],
  );

  const logic = useMemo(
    () =>
      sepaGenerationMachine.provide({
        actors: {
          dryRun: fromPromise(({ input }) => dryRunSepa(input)),
          generate: fromPromise(({ input }) => generateSepa(input)),
        },
        actions: {
          reportGenerated: (_, { output }) => {
            const generated = output as SepaGenerated;
            void queryClient.invalidateQueries({ queryKey: sepaKeys.all });
            void queryClient.invalidateQueries({ queryKey: settlementKeys.all });
            notify('success', t('sepa.generate.done', { msgId: generated.file.msgId }));
          },
        },
      }),
    [queryClient, t],
  );
  const actor = useActorRef(logic);
  const snapshot = useSelector(actor, (s) => s);
  const dryRun = snapshot.context.dryRun as SepaDryRun | null;
  const generated = snapshot.context.generated as SepaGenerated | null;

  const columns = useMemo<DataColumn<SepaDoctorToProcess>[]>(
    () => [
      {
        id: 'doctor',
        header: t('finance.columns.doctor'),
        hideable: false,
        cell: (r) => r.fullName ?? r.professionalName,
      },
      {
        id: 'settlements',
        header: t('finance.columns.settlements'),
        width: '7rem',
        cell: (r) => r.settlementCount,
      },
      {
        id: 'owed',
        header: t('sepa.columns.owed'),
        width: '8rem',
        cell: (r) => formatMoney(r.owedCents, locale),
      },
      {
        id: 'recovery',
        header: t('finance.columns.toRecover'),
        width: '8rem',
        cell: (r) => formatMoney(r.recoveryCents, locale),
      },
      {
        id: 'transfer',
        header: t('sepa.columns.transfer'),
        width: '8rem',
        cell: (r) => formatMoney(r.transferCents, locale),
      },
      {
        id: 'reason',
        header: t('sepa.columns.notSelectable'),
        cell: (r) => (r.selectable ? '' : <ExclusionText row={r} />),
      },
    ],
    [t, locale],
  );

  const request = (professionalIds?: string[]) =>
    actor.send({
      type: 'dryRun.request',
      referenceMonth: month,
      ...(professionalIds ? { professionalIds } : {}),
    });
  const months = [...new Set([month, ...(toProcess.data?.months.map((m) => m.referenceMonth) ?? [])])]
    .sort()
    .reverse();

  return (
    <>
      <label className="month-picker">
        {t('finance.filters.month')}{' '}
        <select value={month} onChange={(e) => navigate(`${location}?tab=process&month=${e.target.value}`)}>
          {months.map((m) => (
            <option key={m} value={m}>
              {formatMonth(m, locale)}
            </option>
          ))}
        </select>
      </label>
      {toProcess.data ? (
        <p data-testid="sepa-totals">
          {t(pluralKey(locale, toProcess.data.totals.doctorCount, TOTALS), {
            // 10 000 doctors in a month: grouped as the table's own count is.
            doctors: new Intl.NumberFormat(locale).format(toProcess.data.totals.doctorCount),
            amount: formatMoney(toProcess.data.totals.owedCents, locale),
          })}{' '}
          <button type="button" onClick={() => request()}>
            {t('sepa.process.all')}
          </button>
        </p>
      ) : null}
      {snapshot.context.notice ? <p role="alert">{t('sepa.process.selectDoctors')}</p> : null}
      {snapshot.context.error && snapshot.matches('selecting') ? (
        <p role="alert">{t(errorCodeKey(snapshot.context.error) ?? 'errorMessages.fallback')}</p>
      ) : null}
      {snapshot.matches('nothingToPay') ? (
        <p role="alert" data-testid="sepa-nothing">
          {t('errorMessages.NO_SEPA_CREATED')}{' '}
          <button type="button" onClick={() => actor.send({ type: 'restart' })}>
            {t('sepa.generate.again')}
          </button>
        </p>
      ) : null}
      {generated && snapshot.hasTag('downloads') ? (
        <section className="sepa-generated" role="status" data-testid="sepa-generated">
          <p>
            {t(pluralKey(locale, generated.file.transferCount, CREATED), {
              msgId: generated.file.msgId,
              count: generated.file.transferCount,
              amount: formatMoney(generated.file.amountCents, locale),
            })}
          </p>
          <a href={sepaDownloadUrl(generated.file.id, 'xml')} download>
            {t('sepa.downloads.xml')}
          </a>{' '}
          <a href={sepaDownloadUrl(generated.file.id, 'xlsx')} download>
            {t('sepa.downloads.xlsx')}
          </a>{' '}
          <Link href={`/sepa/${generated.file.id}`}>{t('sepa.generate.openFile')}</Link>{' '}
          <button type="button" onClick={() => actor.send({ type: 'restart' })}>
            {t('sepa.generate.again')}
          </button>
        </section>
      ) : null}
      <DataTable
        id="sepa-process"
        label={t('sepa.tabs.process')}
        columns={columns}
        queryKey={sepaKeys.toProcess(month)}
        fetchPage={fetchPage}
        getRowId={rowId}
        searchable={false}
        bulkActions={(rows) => {
          const ids = rows.filter((r) => r.selectable).map((r) => r.professionalId);
          return (
            <button type="button" onClick={() => request(ids)} data-testid="sepa-dry-run">
              {t(pluralKey(locale, ids.length, DRY_RUN), { count: ids.length })}
            </button>
          );
        }}
      />
      {snapshot.hasTag('dialog') && dryRun ? (
        <FlowDialog
          title={t('sepa.generate.confirmTitle')}
          confirmLabel={t('sepa.generate.confirm')}
          workingLabel={t('sepa.generate.working')}
          busy={snapshot.hasTag('busy')}
          failed={snapshot.matches('failed')}
          error={snapshot.context.error}
          onAccept={() => actor.send({ type: 'confirm.accept', idempotencyKey: crypto.randomUUID() })}
          onRetry={() => actor.send({ type: 'retry' })}
          onCancel={() => actor.send({ type: 'confirm.cancel' })}
        >
          <p data-testid="sepa-dry-run-summary">
            {t(pluralKey(locale, dryRun.transferCount, SUMMARY), {
              count: dryRun.transferCount,
              amount: formatMoney(dryRun.totalCents, locale),
              date: formatDate(dryRun.executionDate, locale),
            })}
          </p>
          {dryRun.excluded.length > 0 ? (
            <>
              <p>{t('sepa.generate.excluded')}</p>
              <ul>
                {dryRun.excluded.map((x) => (
                  <li key={x.professionalId}>
                    {/* Named as the list names a doctor, full name first (issue 29 point 9); an answer
                        stored before the field existed has none. */}
                    {x.fullName ?? x.professionalName}: {t(EXCLUSION_KEYS[x.reason])}
                  </li>
                ))}
              </ul>
            </>
          ) : null}
        </FlowDialog>
      ) : null}
    </>
  );
}

function ExclusionText({ row }: { row: SepaDoctorToProcess }) {
  const { t } = useI18n();
  if (!row.excludedBecause) return null;
  const detail =
    row.excludedBecause === 'MISSING_INFORMATION'
      ? row.missingFields.map((f) => t(MISSING_FIELD_KEYS[f])).join(', ')
      : row.excludedBecause === 'PAYOUT_BLOCKED' && row.payoutBlock
        ? bankReason(t, row.payoutBlock.reasonCode, row.payoutBlock.reasonText)
        : '';
  return (
    <span data-testid={`excluded-${row.professionalId}`}>
      {t(EXCLUSION_KEYS[row.excludedBecause])}
      {detail ? `: ${detail}` : ''}
    </span>
  );
}

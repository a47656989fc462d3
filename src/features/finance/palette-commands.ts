import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useLocation } from 'wouter';
import { MONEY_SEARCH_MAX } from '../../../contract/limits';
import { formatCents } from '../../../domain/money';
import { fetchSettlements } from '../../api/finance';
import { type FinanceSearch, searchFinance } from '../../api/money-search';
import { fetchSepaFile, type SepaFileDetail, sepaDownloadUrl, sepaKeys } from '../../api/sepa';
import { type Translate, translateEvery, useI18n } from '../../i18n/i18n';
import { useHistoryCommand } from '../../kernel/audit';
import {
  type PaletteCommand,
  usePaletteSearch,
  useRegisterCommands,
  useSettledValue,
} from '../../kernel/palette-registry';
import { SessionContext } from '../../kernel/session';
import { formatMonth, recentMonths } from './format';

/** A case id as the console shows it on the case's page: a whole UUID. */
const CASE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The shortest search sent: one letter would name every record. */
const MIN_SEARCH = 2;
/** The bank's answer is uploaded on the SEPA history tab. */
const STATUS_REPORT_HREF = '/sepa?tab=history';

/**
 * The SEPA files, transfers and doctors the server found for `term` as commands: a file by its MsgId, a
 * transfer (opens its file) by its EndToEndId — both ranked first when typed whole (`ids`) — and a
 * doctor's settlements in Settlement management by name.
 */
export function financeSearchCommands(
  found: FinanceSearch,
  term: string,
  t: Translate,
  locale: string,
  navigate: (path: string) => void,
): PaletteCommand[] {
  const sepaGroup = t('financePalette.sepaGroup');
  return [
    ...found.sepaFiles.map((file) => ({
      id: `sepa:open:${file.id}`,
      group: sepaGroup,
      label: t('financePalette.openFile', { msgId: file.msgId }),
      keywords: [file.msgId],
      ids: [file.msgId, file.id],
      kind: 'entity' as const,
      run: () => navigate(`/sepa/${file.id}`),
    })),
    ...found.transfers.map((transfer) => ({
      id: `sepa:transfer:${transfer.id}`,
      group: sepaGroup,
      label: t('financePalette.openTransfer', {
        endToEndId: transfer.endToEndId,
        doctor: transfer.professionalName,
        amount: formatCents(transfer.amountCents, locale),
        msgId: transfer.msgId,
      }),
      keywords: [transfer.endToEndId, transfer.professionalName],
      ids: [transfer.endToEndId, transfer.id],
      kind: 'entity' as const,
      run: () => navigate(`/sepa/${transfer.sepaFileId}`),
    })),
    ...found.doctors.map((doctor) => ({
      id: `settlement:doctor:${doctor.professionalId}`,
      group: t('financePalette.settleGroup'),
      label: t('financePalette.doctorSettlements', { name: doctor.name }),
      keywords: [doctor.name],
      // The server may have matched the full name, which the label does not show.
      foundBy: term,
      kind: 'entity' as const,
      run: () =>
        navigate(`/settlement?tab=manage&professionalId=${encodeURIComponent(doctor.professionalId)}`),
    })),
  ];
}

/**
 * "Settle a doctor…", "Generate SEPA…", "Upload a status report…", the money records found by what is
 * typed (decision 0131) and a case id's settlement in Settlement management (issue 11 item 8).
 */
export function useFinanceCommands(): void {
  const { t, locale } = useI18n();
  const [, navigate] = useLocation();
  const [search] = usePaletteSearch();
  const authenticated = SessionContext.useSelector((s) => s.hasTag('authenticated'));
  const term = useSettledValue(search.trim());
  const searched =
    authenticated && term.length >= MIN_SEARCH && term.length <= MONEY_SEARCH_MAX ? term : null;
  const caseId = authenticated && CASE_ID.test(term) ? term.toLowerCase() : null;
  const { data: found } = useQuery({
    queryKey: ['finance', 'palette', searched],
    queryFn: () => searchFinance(searched ?? ''),
    enabled: searched !== null,
    staleTime: 30_000,
  });
  const { data: settlements } = useQuery({
    queryKey: ['settlements', 'caseId', caseId],
    queryFn: () => fetchSettlements({ caseId, limit: 1 }),
    enabled: caseId !== null,
    staleTime: 30_000,
  });

  const lastMonth = recentMonths()[1]!;
  const commands = useMemo<PaletteCommand[]>(() => {
    if (!authenticated) return [];
    const group = t('financePalette.settleGroup');
    const caseCommand = (settlementId: string, id: string): PaletteCommand => ({
      id: `settlement:open:${settlementId}`,
      group,
      label: t('financePalette.openSettlement', { caseId: id }),
      keywords: [id],
      ids: [id],
      run: () => navigate(`/settlement?tab=manage&caseId=${id}`),
    });
    const records =
      searched !== null && found ? financeSearchCommands(found, searched, t, locale, navigate) : [];
    return [
      ...records,
      // The server matched the case exactly: its settlement is the one of `caseId`.
      ...(caseId === null
        ? []
        : (settlements?.items ?? []).map((settlement) => caseCommand(settlement.id, caseId))),
      {
        id: 'finance:settle',
        group,
        label: t('financePalette.settle'),
        run: () => navigate('/settlement?tab=process'),
      },
      {
        id: 'finance:sepa',
        group,
        label: t('financePalette.generate'),
        run: () => navigate('/sepa?tab=process'),
      },
      {
        // The month an operator closes: the one before this one (decision 0155).
        id: 'finance:close-last-month',
        group,
        label: t('financePalette.closeLastMonth', { month: formatMonth(lastMonth, locale) }),
        run: () => navigate(`/month-close?month=${lastMonth}`),
      },
      {
        id: 'finance:status-report',
        group: t('financePalette.sepaGroup'),
        label: t('financePalette.uploadStatusReport'),
        keywords: [...translateEvery('financePalette.uploadStatusReport'), 'pain.002'],
        run: () => navigate(STATUS_REPORT_HREF),
      },
    ];
  }, [authenticated, searched, found, caseId, settlements, t, locale, navigate, lastMonth]);
  useRegisterCommands('finance', commands);
}

/** Downloads a file the way its link does: the browser saves it and the page stays. */
function download(href: string): void {
  const link = document.createElement('a');
  link.href = href;
  link.download = '';
  document.body.append(link);
  link.click();
  link.remove();
}

/**
 * The commands of one SEPA file beside its marks (which `useEntityActions` registers from
 * SEPA_FILE_ACTIONS on its page): its downloads while GENERATED, the bank's status report, its history.
 */
export function sepaFileCommands(
  file: Pick<SepaFileDetail, 'id' | 'downloadable'>,
  t: Translate,
  navigate: (path: string) => void,
): PaletteCommand[] {
  // The first load's strings: this source is mounted before the SEPA screen's strings have arrived.
  const group = t('financePalette.fileGroup');
  const downloads = file.downloadable
    ? (
        [
          ['xml', 'financePalette.downloadXml'],
          ['xlsx', 'financePalette.downloadXlsx'],
        ] as const
      ).map(([kind, labelKey]) => ({
        id: `sepa-file:download-${kind}:${file.id}`,
        group,
        label: t(labelKey),
        keywords: [...translateEvery(labelKey), kind],
        kind: 'action' as const,
        run: () => download(sepaDownloadUrl(file.id, kind)),
      }))
    : [];
  return [
    ...downloads,
    {
      id: `sepa-file:status-report:${file.id}`,
      group,
      label: t('financePalette.uploadStatusReport'),
      keywords: [...translateEvery('financePalette.uploadStatusReport'), 'pain.002'],
      kind: 'action' as const,
      run: () => navigate(STATUS_REPORT_HREF),
    },
  ];
}

/** The file's id while `/sepa/{id}` is shown. */
const sepaFileIdOf = (path: string) => /^\/sepa\/([^/]+)$/.exec(path)?.[1] ?? null;

/**
 * On `/sepa/{id}`: the file's downloads, status report and history as palette commands, read from the
 * same cached answer as the page (no second request).
 */
export function useSepaFileCommands(): void {
  const { t } = useI18n();
  const [location, navigate] = useLocation();
  const fileId = sepaFileIdOf(location);
  const { data: file } = useQuery({
    queryKey: sepaKeys.file(fileId ?? ''),
    queryFn: () => fetchSepaFile(fileId ?? ''),
    enabled: fileId !== null,
  });
  // A deleted file's cached answer is null.
  const shown = fileId !== null && file ? file : null;
  const commands = useMemo(() => (shown ? sepaFileCommands(shown, t, navigate) : []), [shown, t, navigate]);
  useRegisterCommands('sepa-file-commands', commands);
  useHistoryCommand(t, 'sepa_file', shown?.id, 'financePalette.fileHistory', 'financePalette.fileGroup');
}

import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useLocation } from 'wouter';
import { fetchSettlements } from '../../api/finance';
import { fetchSepaFiles } from '../../api/sepa';
import { useI18n } from '../../i18n/i18n';
import {
  type PaletteCommand,
  usePaletteSearch,
  useRegisterCommands,
  useSettledValue,
} from '../../kernel/palette-registry';
import { SessionContext } from '../../kernel/session';

/** A SEPA file's MsgId as the server writes it: `SEPA-<month>-<number>`. */
const MSG_ID = /^sepa-\d{4}-\d{2}-\d{6}$/i;
/** A case id as the console shows it on the case's page: a whole UUID. */
const CASE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * "Settle a doctor…", "Generate SEPA…", typing a MsgId to open that file and typing a case id to open
 * its settlement in Settlement management (issue 11 item 8).
 */
export function useFinanceCommands(): void {
  const { t } = useI18n();
  const [, navigate] = useLocation();
  const [search] = usePaletteSearch();
  const authenticated = SessionContext.useSelector((s) => s.hasTag('authenticated'));
  const term = useSettledValue(search.trim());
  const msgId = authenticated && MSG_ID.test(term) ? term.toUpperCase() : null;
  const caseId = authenticated && CASE_ID.test(term) ? term.toLowerCase() : null;
  const { data: files } = useQuery({
    queryKey: ['sepa', 'msgId', msgId],
    queryFn: () => fetchSepaFiles({ msgId, limit: 1 }),
    enabled: msgId !== null,
    staleTime: 30_000,
  });
  const { data: settlements } = useQuery({
    queryKey: ['settlements', 'caseId', caseId],
    queryFn: () => fetchSettlements({ caseId, limit: 1 }),
    enabled: caseId !== null,
    staleTime: 30_000,
  });

  const commands = useMemo<PaletteCommand[]>(() => {
    if (!authenticated) return [];
    const group = t('financePalette.settleGroup');
    const caseCommand = (settlementId: string, id: string): PaletteCommand => ({
      id: `settlement:open:${settlementId}`,
      group,
      label: t('financePalette.openSettlement', { caseId: id }),
      keywords: [id],
      run: () => navigate(`/settlement?tab=manage&caseId=${id}`),
    });
    const found = [
      ...(msgId ? (files?.items ?? []) : []).map((file) => ({
        id: `sepa:open:${file.id}`,
        group: t('financePalette.sepaGroup'),
        label: t('financePalette.openFile', { msgId: file.msgId }),
        keywords: [file.msgId],
        run: () => navigate(`/sepa/${file.id}`),
      })),
      // The server matched the case exactly: its settlement is the one of `caseId`.
      ...(caseId === null
        ? []
        : (settlements?.items ?? []).map((settlement) => caseCommand(settlement.id, caseId))),
    ];
    return [
      ...found,
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
    ];
  }, [authenticated, msgId, files, caseId, settlements, t, navigate]);
  useRegisterCommands('finance', commands);
}

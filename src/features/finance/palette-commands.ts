import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useLocation } from 'wouter';
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

/** "Settle a doctor…", "Generate SEPA…" and typing a MsgId to open that file (issue 11 item 8). */
export function useFinanceCommands(): void {
  const { t } = useI18n();
  const [, navigate] = useLocation();
  const [search] = usePaletteSearch();
  const authenticated = SessionContext.useSelector((s) => s.hasTag('authenticated'));
  const term = useSettledValue(search.trim().toUpperCase());
  const lookup = authenticated && MSG_ID.test(term);
  const { data } = useQuery({
    queryKey: ['sepa', 'msgId', term],
    queryFn: () => fetchSepaFiles({ msgId: term, limit: 1 }),
    enabled: lookup,
    staleTime: 30_000,
  });

  const commands = useMemo<PaletteCommand[]>(() => {
    if (!authenticated) return [];
    const group = t('financePalette.settleGroup');
    const files = lookup
      ? (data?.items ?? []).map((file) => ({
          id: `sepa:open:${file.id}`,
          group: t('financePalette.sepaGroup'),
          label: t('financePalette.openFile', { msgId: file.msgId }),
          keywords: [file.msgId],
          run: () => navigate(`/sepa/${file.id}`),
        }))
      : [];
    return [
      ...files,
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
  }, [authenticated, lookup, data, t, navigate]);
  useRegisterCommands('finance', commands);
}

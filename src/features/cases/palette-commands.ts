import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useLocation } from 'wouter';
import { caseKeys, fetchCases } from '../../api/cases';
import { useI18n } from '../../i18n/i18n';
import {
  type PaletteCommand,
  usePaletteSearch,
  useRegisterCommands,
  useSettledValue,
} from '../../kernel/palette-registry';
import { SessionContext } from '../../kernel/session';
import { shortId } from './format';

const FULL_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
// Ids are shown shortened (8 characters); the server finds a case by any leading fragment.
const ID_FRAGMENT = /^[0-9a-f-]{6,35}$/;
const LOOKUP_LIMIT = 5;

/** Typing a case id, whole or its first characters, in the palette offers to open that case. */
export function useCaseJumpCommands(): void {
  const { t } = useI18n();
  const [, navigate] = useLocation();
  const [search] = usePaletteSearch();
  const authenticated = SessionContext.useSelector((s) => s.hasTag('authenticated'));
  const term = search.trim().toLowerCase();
  const fragment = useSettledValue(term);
  const lookup = authenticated && ID_FRAGMENT.test(fragment) && fragment === term;

  const { data } = useQuery({
    queryKey: caseKeys.list({ q: fragment, limit: LOOKUP_LIMIT }),
    queryFn: () => fetchCases({ q: fragment, limit: LOOKUP_LIMIT }),
    enabled: lookup,
    staleTime: 30_000,
    placeholderData: keepPreviousData,
  });

  const commands = useMemo<PaletteCommand[]>(() => {
    const group = t('palette.groups.cases');
    const open = (id: string, label: string): PaletteCommand => ({
      id: `case:open:${id}`,
      group,
      label,
      keywords: [id],
      kind: 'entity',
      run: () => navigate(`/chat/${id}`),
    });
    if (authenticated && FULL_ID.test(term)) return [open(term, t('cases.palette.open', { id: term }))];
    if (!lookup || !data) return [];
    return data.items
      .filter((c) => c.id.startsWith(term))
      .map((c) =>
        open(
          c.id,
          t('cases.palette.openWith', {
            id: shortId(c.id),
            customer: c.customer.name,
            professional: c.professional.name,
          }),
        ),
      );
  }, [authenticated, term, lookup, data, t, navigate]);

  useRegisterCommands('case-jump', commands);
}

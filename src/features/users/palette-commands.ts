import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useLocation } from 'wouter';
import { USER_SEARCH_MAX } from '../../../contract/limits';
import { fetchUsers, type UserSummary, userKeys } from '../../api/users';
import { useI18n } from '../../i18n/i18n';
import {
  type PaletteCommand,
  usePaletteSearch,
  useRegisterCommands,
  useSettledValue,
} from '../../kernel/palette-registry';
import { SessionContext } from '../../kernel/session';
import { userHref } from './format';

/** Results per group (patients, doctors): the palette stays a short list to pick from. */
export const USERS_PER_GROUP = 5;
const MIN_TERM = 2;

function useRoleSearch(term: string, role: 'CUSTOMER' | 'PROFESSIONAL', enabled: boolean) {
  return useQuery({
    queryKey: [...userKeys.lists(), 'palette', role, term],
    queryFn: () => fetchUsers({ q: term, role, limit: USERS_PER_GROUP }),
    enabled,
    staleTime: 30_000,
    placeholderData: keepPreviousData,
  });
}

/** A person the server found for the palette's search, as a command that opens their page. */
export function userSearchCommand(
  user: UserSummary,
  group: string,
  search: string,
  open: () => void,
): PaletteCommand {
  return {
    id: `user:open:${user.id}`,
    group,
    label: `${user.fullName ?? user.name} · ${user.email}`,
    keywords: [user.name, user.email, user.id],
    kind: 'entity',
    // The server may have matched what the label does not show (a phone, a tax number).
    foundBy: search,
    run: open,
  };
}

/**
 * Users by name, e-mail or id from what is typed in the palette. The server is asked only once
 * typing pauses, and only the newest answer is shown, so typing never waits for the network.
 */
export function useUserSearchCommands(): void {
  const { t } = useI18n();
  const [, navigate] = useLocation();
  const [search] = usePaletteSearch();
  const authenticated = SessionContext.useSelector((s) => s.hasTag('authenticated'));
  const term = search.trim();
  const settled = useSettledValue(term);
  // Longer than the server's limit cannot be a search: nothing is asked (the request would be refused).
  const enabled = authenticated && settled.length >= MIN_TERM && settled.length <= USER_SEARCH_MAX;
  const customers = useRoleSearch(settled, 'CUSTOMER', enabled);
  const professionals = useRoleSearch(settled, 'PROFESSIONAL', enabled);

  const commands = useMemo<PaletteCommand[]>(() => {
    if (!enabled || term.length < MIN_TERM) return [];
    const toCommand = (group: string) => (user: UserSummary) =>
      userSearchCommand(user, group, settled, () => navigate(userHref(user)));
    return [
      ...(customers.data?.items ?? []).slice(0, USERS_PER_GROUP).map(toCommand(t('users.palette.customers'))),
      ...(professionals.data?.items ?? [])
        .slice(0, USERS_PER_GROUP)
        .map(toCommand(t('users.palette.professionals'))),
    ];
  }, [enabled, term, settled, customers.data, professionals.data, t, navigate]);

  useRegisterCommands('user-search', commands);
}

import type { QueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { statusCountsQuery, verifyProfessional } from '../../api/professionals';
import {
  resendVerificationEmail,
  setUserDisabled,
  type UserDetail,
  type UserSummary,
  userKeys,
} from '../../api/users';
import {
  type BulkEntityActionsView,
  useBulkEntityActions,
} from '../../components/EntityActions/useBulkEntityActions';
import {
  type EntityActions,
  type EntityActionsView,
  entityAction,
  useEntityActions,
} from '../../components/EntityActions/useEntityActions';
import { isEntity, markStale, updateCachedRows } from '../../kernel/query-cache';
import { SessionContext } from '../../kernel/session';

interface UserActionContext {
  /** The signed-in admin, who cannot disable themselves. */
  selfId: string | null;
}

/**
 * Puts a user mutation's answer (the user after the change) into the user's page and into their row
 * in every cached users list, without refetching list pages. The answer carries neither the sidebar's
 * counts nor the user's audit trail (the page lists every admin action), so those two are asked again.
 */
function writeUser(queryClient: QueryClient, result: unknown, user: UserSummary): void {
  if (isEntity<UserSummary>(result, user.id)) {
    queryClient.setQueryData<UserDetail>(userKeys.detail(user.id), (detail) =>
      detail ? { ...detail, ...result } : detail,
    );
    updateCachedRows<UserSummary>(queryClient, userKeys.lists(), user.id, (row) => ({ ...row, ...result }));
    // The row may have left a filtered list (disabled doctors) and totals moved: asked again when next shown.
    markStale(queryClient, userKeys.lists());
  }
  void queryClient.invalidateQueries({ queryKey: userKeys.detail(user.id) });
  void queryClient.invalidateQueries({ queryKey: statusCountsQuery.queryKey });
}

/** The admin actions on a user (DESIGN §6): buttons on the user's page and palette commands. */
export const USER_ACTIONS: EntityActions<UserSummary, UserActionContext> = {
  entity: 'user',
  paletteGroupKey: 'users.palette.actions',
  id: (user) => user.id,
  params: (user) => ({ name: user.fullName ?? user.name, email: user.email }),
  gender: (user) => user.gender,
  actions: [
    entityAction({
      id: 'disable',
      labelKey: 'users.actions.disable',
      confirm: {
        titleKey: 'users.actions.disableTitle',
        messageKey: 'users.actions.disableMessage',
        danger: true,
      },
      visible: (user: UserSummary, { selfId }: UserActionContext) => !user.userDisabled && user.id !== selfId,
      mutate: (user: UserSummary) => setUserDisabled(user.id, true),
      write: writeUser,
      done: { key: 'users.actions.disabled' },
    }),
    entityAction({
      id: 'enable',
      labelKey: 'users.actions.enable',
      confirm: { titleKey: 'users.actions.enableTitle', messageKey: 'users.actions.enableMessage' },
      visible: (user: UserSummary) => user.userDisabled,
      mutate: (user: UserSummary) => setUserDisabled(user.id, false),
      write: writeUser,
      done: { key: 'users.actions.enabled' },
    }),
    entityAction({
      id: 'verify',
      labelKey: 'users.actions.verify',
      confirm: { titleKey: 'users.actions.verifyTitle', messageKey: 'users.actions.verifyMessage' },
      params: (user: UserSummary) => ({ college: user.collegeNumber ?? '—' }),
      visible: (user: UserSummary) => user.role === 'PROFESSIONAL' && user.status === 'EMAIL_VERIFIED',
      mutate: (user: UserSummary) => verifyProfessional(user.id),
      write: writeUser,
      done: { key: 'users.actions.verified' },
    }),
    entityAction({
      id: 'resend',
      labelKey: 'users.actions.resend',
      confirm: { titleKey: 'users.actions.resendTitle', messageKey: 'users.actions.resendMessage' },
      visible: (user: UserSummary) => user.status === 'NEW_USER',
      mutate: (user: UserSummary) => resendVerificationEmail(user.id),
      // The user is unchanged; only the audit trail on their page has a new line.
      write: writeUser,
      done: { key: 'users.actions.resent' },
    }),
  ],
};

/** The actions that apply to this user now, their palette commands and their confirmation dialog. */
export function useUserActions(user: UserSummary | undefined): EntityActionsView {
  const selfId = SessionContext.useSelector((s) => s.context.user?.user.id ?? null);
  const context = useMemo(() => ({ selfId }), [selfId]);
  return useEntityActions(USER_ACTIONS, user, context);
}

/** The actions offered on a selection of users (issue 14): the same definitions, one request per user. */
const BULK_USER_ACTIONS = ['disable', 'enable', 'verify'] as const;
const bulkRowLabel = (user: UserSummary) => `${user.fullName ?? user.name} <${user.email}>`;

export function useBulkUserActions(): BulkEntityActionsView<UserSummary> {
  const selfId = SessionContext.useSelector((s) => s.context.user?.user.id ?? null);
  const context = useMemo(() => ({ selfId }), [selfId]);
  return useBulkEntityActions(USER_ACTIONS, context, BULK_USER_ACTIONS, bulkRowLabel);
}

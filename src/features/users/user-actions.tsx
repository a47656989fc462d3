import { useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { verifyProfessional } from '../../api/professionals';
import {
  resendVerificationEmail,
  setUserDisabled,
  type UserSummary,
  userQueryKeysToRefresh,
} from '../../api/users';
import type { ConfirmRequest } from '../../components/ConfirmDialog/ConfirmDialog';
import { useI18n } from '../../i18n/i18n';
import { type PaletteCommand, useRegisterCommands } from '../../kernel/palette-registry';
import { SessionContext } from '../../kernel/session';
import { notify } from '../../kernel/toast';

export interface UserAction {
  id: 'disable' | 'enable' | 'verify' | 'resend';
  label: string;
  request: ConfirmRequest;
}

/**
 * The admin actions that apply to this user now (DESIGN §6), each a confirmation request; the
 * same list feeds the page's buttons and the palette, so both go through one confirmation flow.
 */
export function useUserActions(
  user: UserSummary | undefined,
  ask: (request: ConfirmRequest) => void,
): UserAction[] {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const selfId = SessionContext.useSelector((s) => s.context.user?.user.id ?? null);

  const actions = useMemo<UserAction[]>(() => {
    if (!user) return [];
    const name = user.fullName ?? user.name;
    const refresh = (message: string) => () => {
      for (const queryKey of userQueryKeysToRefresh(user.id))
        void queryClient.invalidateQueries({ queryKey });
      notify('success', message);
    };
    const list: UserAction[] = [];
    if (!user.userDisabled && user.id !== selfId)
      list.push({
        id: 'disable',
        label: t('users.actions.disable'),
        request: {
          title: t('users.actions.disableTitle', { name }),
          message: t('users.actions.disableMessage', { email: user.email }),
          confirmLabel: t('users.actions.disable'),
          danger: true,
          action: () => setUserDisabled(user.id, true),
          onDone: refresh(t('users.actions.disabled', { name })),
        },
      });
    if (user.userDisabled)
      list.push({
        id: 'enable',
        label: t('users.actions.enable'),
        request: {
          title: t('users.actions.enableTitle', { name }),
          message: t('users.actions.enableMessage', { email: user.email }),
          confirmLabel: t('users.actions.enable'),
          action: () => setUserDisabled(user.id, false),
          onDone: refresh(t('users.actions.enabled', { name })),
        },
      });
    if (user.role === 'PROFESSIONAL' && user.status === 'EMAIL_VERIFIED')
      list.push({
        id: 'verify',
        label: t('users.actions.verify'),
        request: {
          title: t('users.actions.verifyTitle', { name }),
          message: t('users.actions.verifyMessage', { college: user.collegeNumber ?? '—' }),
          confirmLabel: t('users.actions.verify'),
          action: () => verifyProfessional(user.id),
          onDone: refresh(t('users.actions.verified', { name })),
        },
      });
    if (user.status === 'NEW_USER')
      list.push({
        id: 'resend',
        label: t('users.actions.resend'),
        request: {
          title: t('users.actions.resendTitle'),
          message: t('users.actions.resendMessage', { email: user.email }),
          confirmLabel: t('users.actions.resend'),
          action: () => resendVerificationEmail(user.id),
          onDone: refresh(t('users.actions.resent', { email: user.email })),
        },
      });
    return list;
  }, [user, selfId, t, queryClient]);

  const commands = useMemo<PaletteCommand[]>(
    () =>
      actions.map((a) => ({
        id: `user:${a.id}`,
        group: t('users.palette.actions'),
        label: a.label,
        run: () => ask(a.request),
      })),
    [actions, ask, t],
  );
  useRegisterCommands('user-actions', commands);
  return actions;
}

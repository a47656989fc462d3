import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { type CaseItem, caseKeys, closeCase } from '../../api/cases';
import { useConfirmation } from '../../components/ConfirmDialog/ConfirmDialog';
import { useI18n } from '../../i18n/i18n';
import { notify } from '../../kernel/toast';
import { CASE_STATUS_KEYS } from './format';

/** "Close case" through the console's one confirmation flow; every view of cases refreshes after. */
export function useCloseCase() {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const { ask, dialog } = useConfirmation();
  const confirmClose = useCallback(
    (item: Pick<CaseItem, 'id' | 'customer' | 'professional'>) =>
      ask({
        title: t('cases.close.title'),
        message: t('cases.close.message', {
          id: item.id,
          customer: item.customer.name,
          professional: item.professional.name,
        }),
        confirmLabel: t('cases.close.confirm'),
        danger: true,
        action: () => closeCase(item.id),
        onDone: (output) => {
          const closed = output as CaseItem;
          notify('success', t('cases.close.done', { status: t(CASE_STATUS_KEYS[closed.status]) }));
          void queryClient.invalidateQueries({ queryKey: caseKeys.all });
        },
      }),
    [ask, t, queryClient],
  );
  return { confirmClose, dialog };
}

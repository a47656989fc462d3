import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import { type CaseItem, caseKeys, closeCase, type MessagePage } from '../../api/cases';
import {
  type EntityActions,
  type EntityActionsView,
  entityAction,
  useEntityActions,
} from '../../components/EntityActions/useEntityActions';
import { isEntity, markStale, updateCachedRows } from '../../kernel/query-cache';
import { CASE_LOOKUP_KEY, CASES_TABLE_KEY } from './cache-keys';
import { CASE_STATUS_KEYS } from './format';

/**
 * Puts the case the server answered (after the change) into the chat's loaded message pages — each
 * carries the case — and into its row in every cached cases list, without refetching any page.
 */
function writeCase(queryClient: QueryClient, result: CaseItem, item: Pick<CaseItem, 'id'>): void {
  if (!isEntity<CaseItem>(result, item.id)) {
    // Not the documented answer: fall back to asking again.
    void queryClient.invalidateQueries({ queryKey: caseKeys.all });
    return;
  }
  queryClient.setQueryData<InfiniteData<MessagePage>>(caseKeys.messages(item.id), (data) =>
    data ? { ...data, pages: data.pages.map((page) => ({ ...page, case: result })) } : data,
  );
  for (const prefix of [CASES_TABLE_KEY, CASE_LOOKUP_KEY]) {
    updateCachedRows<CaseItem>(queryClient, prefix, item.id, () => result);
    // A list filtered on open cases no longer holds it: asked again when next shown.
    markStale(queryClient, prefix);
  }
}

type CaseEntity = Pick<CaseItem, 'id' | 'customer' | 'professional' | 'closed'>;

/** The admin actions on a case: "Close case" on the chat screen and in the palette. */
export const CASE_ACTIONS: EntityActions<CaseEntity, undefined> = {
  entity: 'case',
  paletteGroupKey: 'palette.groups.case',
  id: (item) => item.id,
  params: (item) => ({ id: item.id, customer: item.customer.name, professional: item.professional.name }),
  actions: [
    entityAction({
      id: 'close',
      labelKey: 'cases.close.action',
      confirm: {
        titleKey: 'cases.close.title',
        messageKey: 'cases.close.message',
        confirmKey: 'cases.close.confirm',
        danger: true,
      },
      visible: (item: CaseEntity) => !item.closed,
      mutate: (item: CaseEntity) => closeCase(item.id),
      write: writeCase,
      done: {
        key: 'cases.close.done',
        params: (closed: CaseItem, _item, t) => ({ status: t(CASE_STATUS_KEYS[closed.status]) }),
      },
    }),
  ],
};

/** The case actions that apply now, their palette commands and their confirmation dialog. */
export function useCaseActions(item: CaseEntity | undefined): EntityActionsView {
  return useEntityActions(CASE_ACTIONS, item, undefined);
}

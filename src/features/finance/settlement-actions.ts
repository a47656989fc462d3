import type { QueryClient } from '@tanstack/react-query';
import { canDeleteSettlement, refundedSettlementStatus } from '../../../domain/settlement-status';
import { dashboardQuery } from '../../api/dashboard';
import { type SettlementItem, settlementKeys } from '../../api/finance';
import { sepaKeys } from '../../api/sepa';
import { deleteSettlement, refundSettlement } from '../../api/settlement-manage';
import { type EntityActions, entityAction } from '../../components/EntityActions/useEntityActions';

/**
 * After any change to settlements (confirm, adjust, notes, invoice, refund, delete) everything that
 * shows them is read again: every settlement list and report, the SEPA screens (what a file can pay,
 * a doctor's payouts) and the home screen's counters.
 */
export function refreshSettlements(queryClient: QueryClient): void {
  for (const queryKey of [settlementKeys.all, sepaKeys.all, dashboardQuery.queryKey])
    void queryClient.invalidateQueries({ queryKey });
}

/** A settlement with its month and amount already written in the console's language. */
export type ShownSettlement = SettlementItem & { monthLabel: string; amountLabel: string };

/** What the open settlement's panel does after an action: show the new state, or close. */
export interface SettlementActionEffects {
  changed(settlement: SettlementItem): void;
  gone(): void;
}

/**
 * The single-settlement actions that are one confirmation each (DESIGN §6 decides which apply).
 * Built once per panel (memoised), so the panel follows what the action did.
 */
export function settlementActions(
  effects: SettlementActionEffects,
): EntityActions<ShownSettlement, undefined> {
  return {
    entity: 'settlement',
    paletteGroupKey: 'settlementAdmin.paletteGroup',
    id: (s) => s.id,
    params: (s) => ({ doctor: s.professionalName, month: s.monthLabel, amount: s.amountLabel }),
    actions: [
      entityAction({
        id: 'refund',
        labelKey: 'settlementAdmin.refund',
        confirm: { titleKey: 'settlementAdmin.refundTitle', messageKey: 'settlementAdmin.refundMessage' },
        visible: (s: ShownSettlement) => refundedSettlementStatus(s.status) !== null,
        mutate: (s: ShownSettlement) => refundSettlement(s.id),
        write: (queryClient, result: SettlementItem) => {
          effects.changed(result);
          refreshSettlements(queryClient);
        },
        done: { key: 'settlementAdmin.refunded' },
      }),
      entityAction({
        id: 'delete',
        labelKey: 'settlementAdmin.delete',
        confirm: {
          titleKey: 'settlementAdmin.deleteTitle',
          messageKey: 'settlementAdmin.deleteMessage',
          danger: true,
        },
        visible: (s: ShownSettlement) => canDeleteSettlement(s.status),
        mutate: (s: ShownSettlement) => deleteSettlement(s.id),
        write: (queryClient) => {
          effects.gone();
          refreshSettlements(queryClient);
        },
        done: { key: 'settlementAdmin.deleted' },
      }),
    ],
  };
}

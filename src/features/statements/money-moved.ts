import type { QueryClient } from '@tanstack/react-query';
import { dashboardQuery } from '../../api/dashboard';
import { settlementKeys } from '../../api/finance';
import { sepaKeys } from '../../api/sepa';
import { markStale } from '../../kernel/query-cache';

/**
 * A statement line matched, unmatched or imported can pay a SEPA file and its settlements, return a
 * transfer and block its doctor's payouts: the money screens and the home cards read those, so the next
 * one shown asks again instead of showing what was true before (the blocked doctors' tab did).
 */
export function markMoneyScreensStale(queryClient: QueryClient): void {
  markStale(queryClient, sepaKeys.all);
  markStale(queryClient, settlementKeys.all);
  markStale(queryClient, dashboardQuery.queryKey);
}

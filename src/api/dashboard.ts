import type { z } from 'zod';
import type { dashboardSchema } from '../../contract/dashboard';
import { request } from './http';

// Types only: the schema (and zod) stays out of the console's bundle.
export type Dashboard = z.infer<typeof dashboardSchema>;
export type DashboardTrends = Dashboard['trends'];

export const dashboardQuery = {
  queryKey: ['dashboard'] as const,
  queryFn: () => request<Dashboard>('admin/dashboard'),
  staleTime: 30_000,
};

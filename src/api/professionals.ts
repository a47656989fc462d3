import type { z } from 'zod';
import type { statusCountsSchema } from '../../contract/users';
import { request } from './http';

export type StatusCounts = z.infer<typeof statusCountsSchema>;

export const fetchStatusCounts = () => request<StatusCounts>('admin/professionals/status/count');

export const statusCountsQuery = {
  queryKey: ['professionals', 'status-count'] as const,
  queryFn: fetchStatusCounts,
  staleTime: 30_000,
};

export const verifyProfessional = (id: string) =>
  request<unknown>(`admin/professionals/${encodeURIComponent(id)}/verify`, { method: 'post' });

import { request } from './http';

export interface StatusCounts {
  EMAIL_VERIFIED: number;
  DISABLED: number;
}

export const fetchStatusCounts = () => request<StatusCounts>('admin/professionals/status/count');

export const statusCountsQuery = {
  queryKey: ['professionals', 'status-count'] as const,
  queryFn: fetchStatusCounts,
  staleTime: 30_000,
};

export const verifyProfessional = (id: string) =>
  request<unknown>(`admin/professionals/${encodeURIComponent(id)}/verify`, { method: 'post' });

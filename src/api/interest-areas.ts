import { request } from './http';

export interface InterestArea {
  id: string;
  name: string;
  professionals: number;
  created: string;
}

export const interestAreasQuery = {
  queryKey: ['interest-areas'] as const,
  queryFn: () => request<{ items: InterestArea[]; total: number }>('admin/interest-areas'),
  staleTime: 60_000,
};

export const createInterestArea = (name: string) =>
  request<InterestArea>('admin/interest-areas', { method: 'post', data: { name } });

export const deleteInterestArea = (id: string) =>
  request<void>(`admin/interest-areas/${encodeURIComponent(id)}`, { method: 'delete' });

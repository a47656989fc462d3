import type { z } from 'zod';
import type { areaListSchema, interestAreaSchema } from '../../contract/interest-areas';
import { request } from './http';

export type InterestArea = z.infer<typeof interestAreaSchema>;
export type InterestAreaList = z.infer<typeof areaListSchema>;

export const interestAreasQuery = {
  queryKey: ['interest-areas'] as const,
  queryFn: () => request<InterestAreaList>('admin/interest-areas'),
  staleTime: 60_000,
};

export const createInterestArea = (name: string) =>
  request<InterestArea>('admin/interest-areas', { method: 'post', data: { name } });

export const deleteInterestArea = (id: string) =>
  request<void>(`admin/interest-areas/${encodeURIComponent(id)}`, { method: 'delete' });

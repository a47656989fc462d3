import type { z } from 'zod';
import type { Role, UserStatus } from '../../contract/statuses';
import type {
  areaRefSchema,
  auditEntrySchema,
  missingFieldSchema,
  resendVerificationResultSchema,
  storedFileSchema,
  userDetailSchema,
  userPageSchema,
  userSummarySchema,
} from '../../contract/users';
import { compactQuery, prefetchRequest, type QueryParams, request } from './http';
import { statusCountsQuery } from './professionals';

export { USER_STATUSES } from '../../contract/statuses';
export type { Role, UserStatus };

// Types only: the schemas (and zod) stay out of the console's bundle.
export type AreaRef = z.infer<typeof areaRefSchema>;
/** One row of the users lists (GET /v2/admin/users). */
export type UserSummary = z.infer<typeof userSummarySchema>;
export type StoredFile = z.infer<typeof storedFileSchema>;
export type AuditEntry = z.infer<typeof auditEntrySchema>;
export type MissingField = z.infer<typeof missingFieldSchema>;
/** GET /v2/admin/users/{id}: every field of the specification's user table and what the views show beside it. */
export type UserDetail = z.infer<typeof userDetailSchema>;
export type UserPage = z.infer<typeof userPageSchema>;
export type ResendVerificationResult = z.infer<typeof resendVerificationResultSchema>;

export interface UserSearch {
  q?: string;
  role?: Role;
  sort?: string | null;
  order?: 'asc' | 'desc' | null;
  cursor?: string | null;
  limit?: number;
  [filter: string]: QueryParams[string];
}

export const userKeys = {
  all: ['users'] as const,
  lists: () => [...userKeys.all, 'list'] as const,
  detail: (id: string) => [...userKeys.all, 'detail', id] as const,
};

export const fetchUsers = (search: UserSearch) =>
  request<UserPage>('admin/users', { params: compactQuery(search) as QueryParams });

/** The same request as `fetchUsers`, started ahead for whoever asks for it next (see `prefetchRequest`). */
export const prefetchUsers = (search: UserSearch) =>
  prefetchRequest('admin/users', compactQuery(search) as QueryParams);

export const fetchUser = (id: string) => request<UserDetail>(`admin/users/${encodeURIComponent(id)}`);

export const setUserDisabled = (id: string, disabled: boolean) =>
  request<UserSummary>(`admin/users/${encodeURIComponent(id)}/disable`, {
    method: 'post',
    data: { disabled },
  });

export const resendVerificationEmail = (id: string) =>
  request<ResendVerificationResult>(`admin/users/${encodeURIComponent(id)}/resend/verification-email`, {
    method: 'post',
  });

/** What every user mutation makes stale: lists, that user's page and the sidebar badges. */
export const userQueryKeysToRefresh = (id: string) => [
  userKeys.lists(),
  userKeys.detail(id),
  statusCountsQuery.queryKey,
];

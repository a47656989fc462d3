import { compactQuery, prefetchRequest, type QueryParams, request } from './http';
import { statusCountsQuery } from './professionals';

export type Role = 'ADMIN' | 'PROFESSIONAL' | 'CUSTOMER';
export type UserStatus = 'NEW_USER' | 'EMAIL_VERIFIED' | 'PROFESSIONAL_VERIFIED' | 'DISABLED';
export const USER_STATUSES: readonly UserStatus[] = [
  'NEW_USER',
  'EMAIL_VERIFIED',
  'PROFESSIONAL_VERIFIED',
  'DISABLED',
];

export interface AreaRef {
  id: string;
  name: string;
}

/** One row of the users lists (GET /v2/admin/users). */
export interface UserSummary {
  id: string;
  role: Role;
  name: string;
  fullName: string | null;
  email: string;
  status: UserStatus;
  gender: 'male' | 'female' | null;
  country: string | null;
  locale: 'pt-PT' | 'en-GB';
  phoneNumber: string | null;
  phoneNumberCountryCode: string | null;
  taxNumber: string | null;
  collegeNumber: string | null;
  shareLinkId: string | null;
  emailVerified: boolean;
  professionalVerified: boolean;
  userDisabled: boolean;
  isAdmin: boolean;
  created: string;
  lastActive: string | null;
  areasOfInterest: AreaRef[];
}

export interface StoredFile {
  id: string;
  name: string;
  contentType: string;
  sizeBytes: number;
  downloadUrl: string;
}

export interface AuditEntry {
  id: number;
  action: string;
  at: string;
  actor: { id: string; name: string; email: string } | null;
  before: unknown;
  after: unknown;
}

export type MissingField = 'fullName' | 'taxNumber' | 'iban' | 'collegeNumber';

/** GET /v2/admin/users/{id}: every field of the specification's user table and what the views show beside it. */
export interface UserDetail extends UserSummary {
  birthDate: string | null;
  idCardNumber: string | null;
  casePriceCents: number | null;
  caseCurrency: string;
  subscriptionPriceCents: number | null;
  subscriptionCurrency: string;
  currentWorkplaces: string[];
  specialities: string[];
  referralName: string | null;
  professionalBackground: string | null;
  associationLink: string | null;
  avatar: string | null;
  collegeCardFrontFile: StoredFile | null;
  collegeCardBackFile: StoredFile | null;
  bank: { iban: string | null; ibanValid: boolean; ibanError: string | null; bicSwift: string | null };
  missingFields: MissingField[] | null;
  shareLink: { id: string; visits: number; signups: number; cases: number } | null;
  adminActions: AuditEntry[];
}

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

export interface UserPage {
  items: UserSummary[];
  nextCursor: string | null;
  total: number;
  totalEstimated?: boolean;
}

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
  request<{ sentTo: string }>(`admin/users/${encodeURIComponent(id)}/resend/verification-email`, {
    method: 'post',
  });

/** What every user mutation makes stale: lists, that user's page and the sidebar badges. */
export const userQueryKeysToRefresh = (id: string) => [
  userKeys.lists(),
  userKeys.detail(id),
  statusCountsQuery.queryKey,
];

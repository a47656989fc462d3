import type { CaseStatus, CaseType } from '../../domain/case-status';
import { ApiError, type QueryParams, request } from './http';

export interface CasePerson {
  id: string;
  name: string;
}

export interface CaseItem {
  id: string;
  customer: CasePerson;
  professional: CasePerson;
  closed: boolean;
  status: CaseStatus;
  totalMessages: number;
  type: CaseType;
  startDate: string | null;
  endDate: string | null;
  priceCents: number;
  currency: string;
  professionalSummary: string | null;
  createdAt: string;
  review: { rating: number; createdAt: string } | null;
}

export interface CaseAttachment {
  id: string;
  name: string;
  contentType: string;
  sizeBytes: number;
  url: string;
}

export interface CaseMessage {
  id: string;
  type: 'TEXT' | 'CALL' | 'VOICE';
  sender: { id: string; name: string; role: 'ADMIN' | 'PROFESSIONAL' | 'CUSTOMER' };
  createdAt: string;
  text: string | null;
  callDurationSeconds: number | null;
  voice: { durationSeconds: number; contentType: string; sizeBytes: number; url: string } | null;
  attachments: CaseAttachment[];
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
  total: number;
}

export interface MessagePage extends Page<CaseMessage> {
  case: CaseItem;
}

export interface CaseReview {
  caseId: string;
  rating: number;
  comment: string | null;
  createdAt: string;
}

export const MESSAGE_PAGE_SIZE = 100;

export const fetchCases = (params: QueryParams) => request<Page<CaseItem>>('admin/cases', { params });

export const fetchCaseMessages = (caseId: string, cursor: string | null) =>
  request<MessagePage>(`admin/case/${encodeURIComponent(caseId)}/messages`, {
    params: { limit: MESSAGE_PAGE_SIZE, cursor },
  });

/** A case without a review is an ordinary answer for the chat header, not an error to toast. */
export async function fetchCaseReview(caseId: string): Promise<CaseReview | null> {
  try {
    return await request<CaseReview>('case/review', { params: { caseId } });
  } catch (error) {
    if (error instanceof ApiError && error.code === 'REVIEW_NOT_FOUND') return null;
    throw error;
  }
}

export const closeCase = (caseId: string) =>
  request<CaseItem>(`admin/cases/${encodeURIComponent(caseId)}/close`, { method: 'post' });

export const caseKeys = {
  all: ['cases'] as const,
  list: (params: QueryParams) => ['cases', 'list', params] as const,
  messages: (caseId: string) => ['cases', 'messages', caseId] as const,
  review: (caseId: string) => ['cases', 'review', caseId] as const,
};

export const caseMessagesQuery = (caseId: string) => ({
  queryKey: caseKeys.messages(caseId),
  queryFn: ({ pageParam }: { pageParam: string | null }) => fetchCaseMessages(caseId, pageParam),
  initialPageParam: null as string | null,
  getNextPageParam: (last: MessagePage) => last.nextCursor,
});

export const caseReviewQuery = (caseId: string) => ({
  queryKey: caseKeys.review(caseId),
  queryFn: () => fetchCaseReview(caseId),
});

// The server's file URLs are absolute paths (`/v2/admin/...`); a configured API host prefixes them.
const apiOrigin = (import.meta.env.VITE_API_BASE_URL ?? '').replace(/\/+$/, '');

/**
 * Where `<audio>` and download links fetch voice and attachment bytes. The API reads the
 * `authorization` cookie on GETs (decision 0003), so the browser's own range requests work.
 */
export const fileUrl = (path: string) => `${apiOrigin}${path}`;

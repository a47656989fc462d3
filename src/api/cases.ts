import type { z } from 'zod';
import type {
  caseAttachmentSchema,
  caseItemSchema,
  caseMessageSchema,
  casePageSchema,
  casePersonSchema,
  caseReviewSchema,
  messagePageSchema,
} from '../../contract/cases';
import { ApiError, type QueryParams, request } from './http';

// Types only: the schemas (and zod) stay out of the console's bundle.
export type CasePerson = z.infer<typeof casePersonSchema>;
export type CaseItem = z.infer<typeof caseItemSchema>;
export type CaseAttachment = z.infer<typeof caseAttachmentSchema>;
export type CaseMessage = z.infer<typeof caseMessageSchema>;
export type { Page } from '../../contract/common';
export type CasePage = z.infer<typeof casePageSchema>;
export type MessagePage = z.infer<typeof messagePageSchema>;
export type CaseReview = z.infer<typeof caseReviewSchema>;

export const MESSAGE_PAGE_SIZE = 100;

export const fetchCases = (params: QueryParams) => request<CasePage>('admin/cases', { params });

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

// Voice and attachment links use the shared file URL helper (src/api/http.ts).
export { fileUrl } from './http';

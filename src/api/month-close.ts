import type { z } from 'zod';
import type { monthCloseSchema, providerDocumentPageSchema } from '../../contract/month-close';
import type { ProviderDocumentKind } from '../../contract/statuses';
import { type QueryParams, request } from './http';

// Types only: the schemas (and zod) stay out of the console's bundle.
export type MonthClose = z.infer<typeof monthCloseSchema>;
export type MonthCloseRow = MonthClose['rows'][number];
export type ProviderDocumentPage = z.infer<typeof providerDocumentPageSchema>;
export type ProviderDocument = ProviderDocumentPage['items'][number];

export const monthCloseKeys = {
  month: (month: string) => ['month-close', month] as const,
  documents: ['provider-documents'] as const,
};

/** The month closed in one view (decision 0155). */
export const fetchMonthClose = (month: string) =>
  request<MonthClose>('admin/finance/month-close', { params: { month } });

/** The provider's payouts or invoices, newest first; `matched` as the month's row counts it. */
export const fetchProviderDocuments = (params: QueryParams & { kind: ProviderDocumentKind }) =>
  request<ProviderDocumentPage>('admin/finance/provider-documents', { params });

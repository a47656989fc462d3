import type { z } from 'zod';
import type {
  professionalSettlementSchema,
  professionalSettlementsSchema,
  settlementItemSchema,
  settlementPageSchema,
} from '../../contract/finance';
import type { SettleRequest } from '../../machines/settlement';
import { fileUrl } from './cases';
import { type QueryParams, request } from './http';

// Types only: the schemas (and zod) stay out of the console's bundle.
export type SettlementItem = z.infer<typeof settlementItemSchema>;
export type SettlementPage = z.infer<typeof settlementPageSchema>;
export type ProfessionalSettlement = z.infer<typeof professionalSettlementSchema>;
export type ProfessionalSettlements = z.infer<typeof professionalSettlementsSchema>;

const SETTLEMENT = 'admin/settlement';

export const fetchSettlements = (params: QueryParams) =>
  request<SettlementPage>(`${SETTLEMENT}/`, { params });

/** The doctors with settlements to process (READY_TO_SETTLE or AVAILABLE), per month, with missing data. */
export const fetchProfessionalSettlements = (params: { referenceMonth?: string; professionalId?: string }) =>
  request<ProfessionalSettlements>(`${SETTLEMENT}/professional`, { params });

export const settlementKeys = {
  all: ['settlements'] as const,
  list: ['settlements', 'list'] as const,
  toProcess: (referenceMonth: string | null) => ['settlements', 'toProcess', referenceMonth] as const,
  review: (professionalId: string, referenceMonth: string) =>
    ['settlements', 'review', professionalId, referenceMonth] as const,
  report: (month: string) => ['settlements', 'report', month] as const,
};

const byId = (id: string) => `${SETTLEMENT}/${encodeURIComponent(id)}`;

/** What `POST admin/settlement/` answers: what was settled. */
export interface SettlementConfirmResult {
  professionalId: string;
  referenceMonth: string;
  settledCount: number;
  totalCents: number;
  currency: string;
  settlementIds: string[];
}

/**
 * Confirms the value of a doctor's month: the included settlements (with the admin's adjustments)
 * become SETTLED, all or none. The key makes a repeat answer the first confirmation.
 */
export const confirmSettlement = ({ idempotencyKey, ...body }: SettleRequest) =>
  request<SettlementConfirmResult>(`${SETTLEMENT}/`, {
    method: 'post',
    data: body,
    headers: { 'Idempotency-Key': idempotencyKey },
  });

export const invoiceDownloadUrl = (id: string) => fileUrl(`/v2/${byId(id)}/invoice/download`);

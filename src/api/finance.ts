import type { z } from 'zod';
import type {
  professionalSettlementSchema,
  professionalSettlementsSchema,
  settlementConfirmResultSchema,
  settlementConfirmSchema,
  settlementItemSchema,
  settlementPageSchema,
} from '../../contract/finance';
import type { SettleRequest } from '../../machines/settlement';
import { fileUrl, type QueryParams, request } from './http';

// Types only: the schemas (and zod) stay out of the console's bundle.
export type SettlementItem = z.infer<typeof settlementItemSchema>;
export type SettlementPage = z.infer<typeof settlementPageSchema>;
export type ProfessionalSettlement = z.infer<typeof professionalSettlementSchema>;
export type ProfessionalSettlements = z.infer<typeof professionalSettlementsSchema>;

const SETTLEMENT = 'admin/settlement';

export const fetchSettlements = (params: QueryParams) =>
  request<SettlementPage>(`${SETTLEMENT}/`, { params });

/**
 * A page of the doctors with settlements to process (READY_TO_SETTLE or AVAILABLE), per month, with
 * missing data, and the totals of every page.
 */
export const fetchProfessionalSettlements = (params: {
  referenceMonth?: string;
  professionalId?: string;
  /** Part of the doctor's name or full name. */
  q?: string;
  limit?: number;
  cursor?: string;
}) => request<ProfessionalSettlements>(`${SETTLEMENT}/professional`, { params });

export const settlementKeys = {
  all: ['settlements'] as const,
  list: ['settlements', 'list'] as const,
  toProcess: (referenceMonth: string | null) => ['settlements', 'toProcess', referenceMonth] as const,
  review: (professionalId: string, referenceMonth: string) =>
    ['settlements', 'review', professionalId, referenceMonth] as const,
  report: (month: string) => ['settlements', 'report', month] as const,
};

const byId = (id: string) => `${SETTLEMENT}/${encodeURIComponent(id)}`;

export type SettlementConfirmResult = z.infer<typeof settlementConfirmResultSchema>;
/** The body as the contract takes it; the machine's request (minus its key) must fit it. */
type SettlementConfirmBody = z.input<typeof settlementConfirmSchema>;

/**
 * Confirms the value of a doctor's month: the included settlements (with the admin's adjustments)
 * become SETTLED, all or none. The key makes a repeat answer the first confirmation.
 */
export const confirmSettlement = ({ idempotencyKey, ...body }: SettleRequest) =>
  request<SettlementConfirmResult>(`${SETTLEMENT}/`, {
    method: 'post',
    data: body satisfies SettlementConfirmBody,
    headers: { 'Idempotency-Key': idempotencyKey },
  });

export const invoiceDownloadUrl = (id: string) => fileUrl(`/v2/${byId(id)}/invoice/download`);

import type { z } from 'zod';
import type {
  settlementBulkDeleteResultSchema,
  settlementInvoiceSchema,
  settlementPatchSchema,
  settlementReportSchema,
} from '../../contract/finance';
import type { SettlementItem } from './finance';
import { fileUrl, request, serializeParams } from './http';

// Settlement management and reports (issue 11 items 3–4): only the lazy finance chunk imports this.
export type SettlementBulkDeleteResult = z.infer<typeof settlementBulkDeleteResultSchema>;
export type SettlementInvoice = z.infer<typeof settlementInvoiceSchema>;
export type SettlementReport = z.infer<typeof settlementReportSchema>;
type SettlementPatch = z.input<typeof settlementPatchSchema>;

const SETTLEMENT = 'admin/settlement';
const byId = (id: string) => `${SETTLEMENT}/${encodeURIComponent(id)}`;

export const deleteSettlement = (id: string) => request<unknown>(byId(id), { method: 'delete' });

export const bulkDeleteSettlements = (settlementIds: readonly string[]) =>
  request<SettlementBulkDeleteResult>(`${SETTLEMENT}/bulk-delete`, {
    method: 'post',
    data: { settlementIds },
  });

/** Adjust (amount and its note) or clear the adjustment; set or clear the notes. */
export const patchSettlement = (id: string, body: SettlementPatch) =>
  request<SettlementItem>(byId(id), { method: 'patch', data: body });

export const refundSettlement = (id: string) =>
  request<SettlementItem>(`${byId(id)}/refund`, { method: 'post', data: {} });

/** The file's bytes are the body; the server reads its type from them. */
export const uploadSettlementInvoice = (id: string, file: File) =>
  request<SettlementInvoice>(`${byId(id)}/invoice`, {
    method: 'put',
    params: { fileName: file.name },
    data: file,
    headers: { 'Content-Type': 'application/octet-stream' },
  });

export const fetchSettlementReport = (month: string) =>
  request<SettlementReport>(`${SETTLEMENT}/reports/`, { params: { month } });

export const settlementReportUrl = (month: string, format: 'csv' | 'xlsx', locale: string) =>
  fileUrl(`/v2/${SETTLEMENT}/reports/download?${serializeParams({ month, format, locale })}`);

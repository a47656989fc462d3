import type { z } from 'zod';
import type { auditLogItemSchema, auditLogPageSchema } from '../../contract/audit';
import { type QueryParams, request } from './http';

// Types only: the schemas (and zod) stay out of the console's bundle.
export type AuditLogItem = z.infer<typeof auditLogItemSchema>;
export type AuditLogPage = z.infer<typeof auditLogPageSchema>;

export const AUDIT_TABLE_KEY = ['audit', 'list'] as const;

export const fetchAuditLog = (params: QueryParams) => request<AuditLogPage>('admin/audit', { params });

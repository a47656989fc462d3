import type { z } from 'zod';
import type {
  blockedDoctorPageSchema,
  professionalPayoutsSchema,
  sepaDryRunSchema,
  sepaFileDetailSchema,
  sepaFilePageSchema,
  sepaFileSchema,
  sepaGenerateBodySchema,
  sepaGeneratedSchema,
  sepaStatusReportResultSchema,
  sepaToProcessSchema,
} from '../../contract/sepa';
import type { SepaFileAction } from '../../contract/sepa-statuses';
import type { SepaGenerateRequest, SepaRequestBody } from '../../machines/sepa-generation';
import { fileUrl, type QueryParams, request } from './http';

// Types only: the schemas (and zod) stay out of the console's bundle.
export type SepaToProcess = z.infer<typeof sepaToProcessSchema>;
export type SepaDoctorToProcess = SepaToProcess['items'][number];
export type SepaDryRun = z.infer<typeof sepaDryRunSchema>;
export type SepaGenerated = z.infer<typeof sepaGeneratedSchema>;
export type SepaFile = z.infer<typeof sepaFileSchema>;
export type SepaFilePage = z.infer<typeof sepaFilePageSchema>;
export type SepaFileDetail = z.infer<typeof sepaFileDetailSchema>;
export type SepaStatusReportResult = z.infer<typeof sepaStatusReportResultSchema>;
export type ProfessionalPayouts = z.infer<typeof professionalPayoutsSchema>;
export type BlockedDoctorPage = z.infer<typeof blockedDoctorPageSchema>;
export type BlockedDoctor = BlockedDoctorPage['items'][number];
type GenerateBody = z.input<typeof sepaGenerateBodySchema>;

const SEPA = 'admin/settlement/sepa';
const byId = (id: string) => `${SEPA}/${encodeURIComponent(id)}`;

/** One page of the month's doctors (keyset: `cursor` is the previous page's `nextCursor`), with the month's totals. */
export const fetchSepaToProcess = (params: {
  referenceMonth: string;
  limit: number;
  cursor?: string | null;
}) =>
  request<SepaToProcess>(`${SEPA}/to-process`, {
    params: { referenceMonth: params.referenceMonth, limit: params.limit, cursor: params.cursor },
  });

export const dryRunSepa = (body: SepaRequestBody) =>
  request<SepaDryRun>(`${SEPA}/dry-run`, { method: 'post', data: body satisfies GenerateBody });

/** One file per key: a retry with the same key answers the first file, never a second one. */
export const generateSepa = ({ body, idempotencyKey }: SepaGenerateRequest) =>
  request<SepaGenerated>(`${SEPA}/`, {
    method: 'post',
    data: body satisfies GenerateBody,
    headers: { 'Idempotency-Key': idempotencyKey },
  });

export const fetchSepaFiles = (params: QueryParams) => request<SepaFilePage>(`${SEPA}/`, { params });
export const fetchSepaFile = (id: string) => request<SepaFileDetail>(byId(id));
export const deleteSepaFile = (id: string) => request<unknown>(byId(id), { method: 'delete' });
export const markSepaFile = (id: string, action: SepaFileAction) =>
  request<SepaFileDetail>(`${byId(id)}/${action}`, { method: 'post' });

/** The bank's pain.002 as it came: the raw XML is the body. */
export const uploadStatusReport = (file: Blob) =>
  request<SepaStatusReportResult>(`${SEPA}/status-report`, {
    method: 'post',
    data: file,
    headers: { 'Content-Type': 'application/xml' },
  });

export const fetchProfessionalPayouts = (professionalId: string) =>
  request<ProfessionalPayouts>(`admin/professionals/${encodeURIComponent(professionalId)}/payouts`);

/** Every doctor whose payouts are blocked now, in one page (decision 0143). */
export const fetchBlockedDoctors = () => request<BlockedDoctorPage>('admin/professionals/payout-blocked');

/** The specification's "TXT" (the pain.001 XML) and "XLS" (XLSX), only while GENERATED. */
export const sepaDownloadUrl = (id: string, kind: 'xml' | 'xlsx') =>
  fileUrl(`/v2/${byId(id)}/download/${kind}`);

export const sepaKeys = {
  all: ['sepa'] as const,
  toProcess: (referenceMonth: string) => ['sepa', 'toProcess', referenceMonth] as const,
  /** The first page, read by the screen's header (totals, months) and its table alike: one request. */
  toProcessFirstPage: (referenceMonth: string, limit: number) =>
    ['sepa', 'toProcess', referenceMonth, 'first', limit] as const,
  files: ['sepa', 'files'] as const,
  file: (id: string) => ['sepa', 'file', id] as const,
  payouts: (professionalId: string) => ['sepa', 'payouts', professionalId] as const,
  blocked: ['sepa', 'blocked'] as const,
};

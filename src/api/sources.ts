import type {
  KnownSourceRows,
  SourceFilePage,
  SourceImportJob,
  SourceKind,
} from '../../contract/source-import';
import type { ProviderCsvMapping } from '../../domain/sources/provider-csv';
import { type QueryParams, request } from './http';

// Types only: the schemas (and zod) stay out of the console's bundle.
export type {
  KnownSourceRow,
  SourceFileRow,
  SourceImportJob,
  SourceImportResult,
  SourceKind,
} from '../../contract/source-import';

const SOURCES = 'admin/sources';

/** Which of these rows of a `kind` file were imported before (≤ `KNOWN_SOURCE_IDS_MAX` ids: the caller chunks). */
export const fetchKnownSourceRows = (kind: SourceKind, ids: readonly string[]) =>
  request<KnownSourceRows>(`${SOURCES}/known`, { method: 'post', data: { kind, ids } });

export interface SourceUploadRequest {
  file: Blob;
  fileName: string;
  kind: SourceKind;
  /** A collector's report only (`providerCsvMappingSchema`: its delimiter one of `,` `;` tab `|`, as detected). */
  mapping: ProviderCsvMapping | null;
  expectedRows: number;
  expectedTotalCents: number;
  idempotencyKey: string;
}

/** The original bytes as the body; what the preview saw in the query. Answers 202 with the job. */
export const startSourceImport = (upload: SourceUploadRequest) =>
  request<{ job: SourceImportJob }>(`${SOURCES}/imports`, {
    method: 'post',
    params: {
      kind: upload.kind,
      fileName: upload.fileName,
      expectedRows: upload.expectedRows,
      expectedTotalCents: upload.expectedTotalCents,
      mapping: upload.mapping ? JSON.stringify(upload.mapping) : undefined,
    },
    data: upload.file,
    headers: { 'Content-Type': 'application/octet-stream', 'Idempotency-Key': upload.idempotencyKey },
  });

export const fetchSourceImport = (jobId: string) =>
  request<SourceImportJob>(`${SOURCES}/imports/${encodeURIComponent(jobId)}`);

export const fetchSourceFiles = (params: QueryParams) =>
  request<SourceFilePage>(`${SOURCES}/files`, { params });

export const sourceKeys = {
  all: ['sources'] as const,
  files: ['sources', 'files'] as const,
};

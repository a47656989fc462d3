import type { z } from 'zod';
import type {
  Candidate,
  StatementActionResult,
  StatementBulkAcceptResult,
  StatementBulkIgnoreResult,
  StatementFileRow,
  StatementFilterAcceptResult,
  StatementUndoResult,
  SuggestionFilterTotals,
  statementFilePageSchema,
  statementLineHistorySchema,
  statementLinePageSchema,
} from '../../contract/reconciliation';
import type { KnownLines, StatementAccounts, StatementImportJob } from '../../contract/statement-import';
import type { CsvMapping } from '../../domain/statements/types';
import type { CountedScope, ReconciliationRequest } from '../../machines/reconciliation';
import type { KnownLinesQuestion } from '../../machines/statement-import';
import { type QueryParams, request } from './http';

// Types only: the schemas (and zod) stay out of the console's bundle.
export type {
  BankStatement,
  Candidate,
  Counterpart,
  StatementFileRow,
  StatementLineRow,
} from '../../contract/reconciliation';
export type {
  KnownLine,
  StatementAccountRow,
  StatementImportJob,
} from '../../contract/statement-import';
export type StatementFilePage = z.infer<typeof statementFilePageSchema>;
export type StatementLinePage = z.infer<typeof statementLinePageSchema>;
export type StatementLineHistory = z.infer<typeof statementLineHistorySchema>;

const STATEMENTS = 'admin/statements';
const line = (id: string) => `${STATEMENTS}/lines/${encodeURIComponent(id)}`;

/** Which of one statement's line keys were imported before, and why (≤ 5,000 keys per call: the caller chunks). */
export const fetchKnownLines = (statement: KnownLinesQuestion) =>
  request<KnownLines>(`${STATEMENTS}/known-lines`, { method: 'post', data: statement });

/** The accounts statements were imported for, to pick one for a file that names none. */
export const fetchStatementAccounts = async () =>
  (await request<StatementAccounts>(`${STATEMENTS}/accounts`)).items;

export interface StatementUploadRequest {
  file: Blob;
  fileName: string;
  mapping: CsvMapping | null;
  expectedLines: number;
  expectedTotalCents: number;
  idempotencyKey: string;
  accountIban: string | null;
  mismatchNote: string | null;
}

/** The original bytes as the body; what the preview saw in the query. Answers 202 with the job. */
export const startStatementImport = (upload: StatementUploadRequest) =>
  request<{ job: StatementImportJob }>(`${STATEMENTS}/imports`, {
    method: 'post',
    params: {
      fileName: upload.fileName,
      mapping: upload.mapping ? JSON.stringify(upload.mapping) : undefined,
      expectedLines: upload.expectedLines,
      expectedTotalCents: upload.expectedTotalCents,
      accountIban: upload.accountIban ?? undefined,
      mismatchNote: upload.mismatchNote ?? undefined,
    },
    data: upload.file,
    headers: { 'Content-Type': 'application/octet-stream', 'Idempotency-Key': upload.idempotencyKey },
  });

export const fetchStatementImport = (jobId: string) =>
  request<StatementImportJob>(`${STATEMENTS}/imports/${encodeURIComponent(jobId)}`);

export const fetchStatementFiles = (params: QueryParams) =>
  request<StatementFilePage>(`${STATEMENTS}/files`, { params });
export const fetchStatementFile = (id: string) =>
  request<StatementFileRow>(`${STATEMENTS}/files/${encodeURIComponent(id)}`);
export const markStatementFileReconciled = (id: string) =>
  request<StatementFileRow>(`${STATEMENTS}/files/${encodeURIComponent(id)}/reconciled`, { method: 'post' });

export const fetchStatementLines = (params: QueryParams) =>
  request<StatementLinePage>(`${STATEMENTS}/lines`, { params });
export const fetchLineCandidates = (id: string) =>
  request<{ candidates: Candidate[] }>(`${line(id)}/candidates`);
export const fetchLineHistory = (id: string) => request<StatementLineHistory>(`${line(id)}/history`);

/** One reconciliation request of the table's machine, to its route. */
export function performReconciliation(
  action: ReconciliationRequest,
): Promise<
  | StatementActionResult
  | StatementBulkAcceptResult
  | StatementFilterAcceptResult
  | StatementBulkIgnoreResult
  | StatementUndoResult
> {
  const post = <T>(path: string, data?: unknown, headers?: Record<string, string>) =>
    request<T>(path, { method: 'post', data, ...(headers ? { headers } : {}) });
  switch (action.kind) {
    case 'accept':
      return post(`${line(action.lineId)}/accept`);
    case 'unmatch':
      return post(`${line(action.lineId)}/unmatch`);
    case 'ignore':
      return post(`${line(action.lineId)}/ignore`, { note: action.note });
    case 'note':
      return post(`${line(action.lineId)}/notes`, { note: action.note });
    case 'match':
      return post(`${line(action.lineId)}/match`, {
        counterparts: action.counterparts,
        ...(action.note ? { note: action.note } : {}),
      });
    case 'bulkAccept':
      return post(
        `${STATEMENTS}/lines/accept`,
        { lineIds: action.lineIds },
        {
          'Idempotency-Key': action.idempotencyKey,
        },
      );
    case 'filterAccept':
      return post(
        `${STATEMENTS}/lines/accept-filter`,
        { filter: action.filter, asOf: action.asOf },
        { 'Idempotency-Key': action.idempotencyKey },
      );
    case 'bulkIgnore':
      return post(
        `${STATEMENTS}/lines/ignore`,
        { lineIds: action.lineIds, note: action.note },
        { 'Idempotency-Key': action.idempotencyKey },
      );
    case 'filterIgnore':
      return post(
        `${STATEMENTS}/lines/ignore-filter`,
        { filter: action.filter, asOf: action.asOf, note: action.note },
        { 'Idempotency-Key': action.idempotencyKey },
      );
    case 'undo':
      return post(`${STATEMENTS}/actions/${encodeURIComponent(action.actionId)}/undo`);
  }
}

/**
 * The confirmation's count and sum of a filter's bulk action: how many suggestions a "score ≥ x" filter
 * selects (decision 0147), or how many open lines a filter lists for its ignore (decision 0161).
 */
export const fetchBulkTotals = (scope: CountedScope) =>
  request<SuggestionFilterTotals>(
    `${STATEMENTS}/lines/${scope.kind === 'filterAccept' ? 'suggestions' : 'ignorable'}`,
    { params: { ...scope.filter } },
  );

export const statementKeys = {
  all: ['statements'] as const,
  files: ['statements', 'files'] as const,
  lines: ['statements', 'lines'] as const,
  accounts: ['statements', 'accounts'] as const,
  candidates: (id: string) => ['statements', 'candidates', id] as const,
  history: (id: string) => ['statements', 'history', id] as const,
};

import type { z } from 'zod';
import type {
  Candidate,
  StatementActionResult,
  StatementBulkAcceptResult,
  StatementFileRow as StatementFileRowOfContract,
  StatementUndoResult,
  statementLineHistorySchema,
  statementLinePageSchema,
} from '../../contract/reconciliation';
import type { StatementImportJob } from '../../contract/statement-import';
import type { CsvMapping } from '../../domain/statements/types';
import type { ReconciliationRequest } from '../../machines/reconciliation';
import type { KnownLinesQuestion } from '../../machines/statement-import';
import { type QueryParams, request } from './http';

// Types only: the schemas (and zod) stay out of the console's bundle.
export type { Candidate, Counterpart, StatementLineRow } from '../../contract/reconciliation';
export type { StatementImportJob } from '../../contract/statement-import';

// Issue 27's wire, declared here until the server's contract has it (the same shapes; swapped at merge).
/** Why a line counts as imported: the bank's own reference, the same statement, or the same content in an overlapping statement of the account. */
export type KnownLineReason = 'BANK_REFERENCE' | 'SAME_STATEMENT' | 'SAME_CONTENT';
export interface KnownLine {
  key: string;
  statementFileId: string;
  fileName: string;
  importedAt: string;
  reason: KnownLineReason;
}
/** An account statements were imported for: offered when a file names none. */
export interface StatementAccount {
  accountIban: string;
  currency: string | null;
  statementCount: number;
  /** The latest statement's period end and closing balance (null: it stated none). */
  lastPeriodEnd: string;
  lastClosingBalanceCents: number | null;
}
/** How a statement follows the account's previous one: its opening against that one's closing. */
export type StatementContinuity = 'FIRST' | 'CONTINUES' | 'GAP' | 'OVERLAP';
/** One statement of an imported file (one account, one period). */
export interface StatementFileStatement {
  id: string;
  accountIban: string | null;
  currency: string | null;
  statementId: string | null;
  sequence: string | null;
  periodStart: string;
  periodEnd: string;
  openingBalanceCents: number | null;
  closingBalanceCents: number | null;
  balanceConsistent: boolean | null;
  /** Why it was imported although its balances do not add up. */
  mismatchNote: string | null;
  entryCount: number;
  lineCount: number;
  duplicatesSkipped: number;
  pendingSkipped: number;
  continuity: StatementContinuity;
  /** GAP: the opening minus the previous statement's closing (null without balances). */
  gapCents: number | null;
  /** The account's previous statement's period (null when FIRST). */
  previousPeriodStart: string | null;
  previousPeriodEnd: string | null;
}
export type StatementFileRow = StatementFileRowOfContract & { statements?: StatementFileStatement[] };
export interface StatementFilePage {
  items: StatementFileRow[];
  nextCursor: string | null;
  total: number;
  totalEstimated?: boolean;
}
export type StatementLinePage = z.infer<typeof statementLinePageSchema>;
export type StatementLineHistory = z.infer<typeof statementLineHistorySchema>;

const STATEMENTS = 'admin/statements';
const line = (id: string) => `${STATEMENTS}/lines/${encodeURIComponent(id)}`;

/** Which of one statement's line keys were imported before, and why (≤ 5,000 keys per call: the caller chunks). */
export const fetchKnownLines = (statement: KnownLinesQuestion) =>
  request<{ known: KnownLine[] }>(`${STATEMENTS}/known-lines`, { method: 'post', data: statement });

/** The accounts statements were imported for, to pick one for a file that names none. */
export const fetchStatementAccounts = async () =>
  (await request<{ items: StatementAccount[] }>(`${STATEMENTS}/accounts`)).items;

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
): Promise<StatementActionResult | StatementBulkAcceptResult | StatementUndoResult> {
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
    case 'undo':
      return post(`${STATEMENTS}/actions/${encodeURIComponent(action.actionId)}/undo`);
  }
}

export const statementKeys = {
  all: ['statements'] as const,
  files: ['statements', 'files'] as const,
  lines: ['statements', 'lines'] as const,
  accounts: ['statements', 'accounts'] as const,
  candidates: (id: string) => ['statements', 'candidates', id] as const,
  history: (id: string) => ['statements', 'history', id] as const,
};

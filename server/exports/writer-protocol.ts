import type { ExportColumn, ExportLocale } from '../../domain/export-files';

/** What the writer thread is started with. */
export interface WriterSetup {
  columns: ExportColumn[];
  format: 'CSV' | 'XLSX';
  locale: ExportLocale;
  sheetName: string;
}

/**
 * A batch of rows as one JSON array text: a string crosses to the thread as one copy, where a million
 * row objects would be structured-cloned cell by cell (the API thread's main cost, bench/results/exports.md).
 */
export interface RowBatch {
  json: string;
  count: number;
}

/** Job → thread: a batch of rows, the end of them, or that a chunk of bytes was stored. */
export type FromJob = ({ type: 'rows' } & RowBatch) | { type: 'end' } | { type: 'written' };

/**
 * Thread → job: it wants another batch (`consumed`: rows the writer has read so far), bytes to store,
 * the file is complete, or the writer failed (`reason`: a code such as XLSX_TOO_MANY_ROWS).
 */
export type ToJob =
  | { type: 'pull'; consumed: number }
  | { type: 'bytes'; chunk: Uint8Array }
  | { type: 'done' }
  | { type: 'failed'; reason: string; message: string };

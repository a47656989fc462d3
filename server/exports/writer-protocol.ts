import type { ExportColumn, ExportLocale, ExportRow } from '../../domain/export-files';

/** What the writer thread is started with. */
export interface WriterSetup {
  columns: ExportColumn[];
  format: 'CSV' | 'XLSX';
  locale: ExportLocale;
  sheetName: string;
}

/** Job → thread: a batch of rows, the end of them, or that a chunk of bytes was stored. */
export type FromJob = { type: 'rows'; rows: ExportRow[] } | { type: 'end' } | { type: 'written' };

/**
 * Thread → job: it wants another batch (`consumed`: rows the writer has read so far), bytes to store,
 * the file is complete, or the writer failed (`reason`: a code such as XLSX_TOO_MANY_ROWS).
 */
export type ToJob =
  | { type: 'pull'; consumed: number }
  | { type: 'bytes'; chunk: Uint8Array }
  | { type: 'done' }
  | { type: 'failed'; reason: string; message: string };

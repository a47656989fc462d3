import type {
  BalanceCheck,
  CsvMapping,
  ParseError,
  SkippedEntry,
  TextEncodingName,
} from '../../../domain/statements/types';
import type { StatementPreviewOutcome } from '../../../machines/statement-import';

/** What the page asks the preview worker: the file's bytes, the mapping to use, the ones remembered. */
export interface PreviewRequest {
  bytes: ArrayBuffer;
  mapping: CsvMapping | null;
  /** Mappings the admin confirmed before, by `headerKey` of their CSV header. */
  remembered: Record<string, CsvMapping>;
  /** The account the admin gave, for the statements that name none: their line keys hold it. */
  accountIban: string | null;
}

/** The errors (and skipped entries) sent to the page: enough to find and fix them, not 100,000 of them. */
export const MAX_ERRORS_SHOWN = 500;

/**
 * The worker's answers: the rows in chunks (`json`: `count` entries as a JSON array, so that the page
 * copies one string rather than a thousand objects), then their line keys, then what the whole file
 * said. `reset`: the rows sent so far are not the file's after all (its end changed them); drop them.
 */
export type PreviewMessage =
  | { type: 'rows'; count: number; json: string }
  | { type: 'reset' }
  | { type: 'keys'; keys: string[] }
  | { type: 'done'; outcome: StatementPreviewOutcome; details: PreviewDetails };

/** What the preview shows beside the rows (the flow itself reads `StatementPreviewOutcome`). */
export interface PreviewDetails {
  accountIban: string | null;
  encoding: TextEncodingName | null;
  balance: BalanceCheck | null;
  errors: ParseError[];
  errorCount: number;
  /** Pending and informational entries, read and not imported. */
  skipped: SkippedEntry[];
  skippedCount: number;
  delimiter: string | null;
}

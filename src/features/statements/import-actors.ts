import { fromPromise } from 'xstate';
import type { CsvField } from '../../../domain/statements/types';
import {
  type KnownLinesOutcome,
  type KnownLinesQuestion,
  type StatementImportJobView,
  type StatementPreviewOutcome,
  type StatementReadRequest,
  type StatementSubmitRequest,
  statementImportMachine,
} from '../../../machines/statement-import';
import {
  fetchKnownLines,
  fetchStatementImport,
  type KnownLine,
  startStatementImport,
} from '../../api/statements';
import { rememberedMappings, rememberMapping } from '../../kernel/column-mappings';
import { PreviewRows } from '../../kernel/preview-rows';
import { KNOWN_LINES_MAX_KEYS } from './limits';
import { previewInWorker, type StatementPreviewRows } from './preview-client';
import type { PreviewDetails } from './preview-protocol';

/** Where the bank CSV mappings the admin confirmed are remembered, by header. */
const MEMORY = 'statement-csv-mappings';
/** How often the import's progress is asked. */
const POLL_MS = 500;

/** What the screen shows beside the flow's own context: the rows, the parse details, the known lines. */
export interface PreviewState {
  rows: StatementPreviewRows;
  details: PreviewDetails | null;
  known: Map<string, KnownLine>;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });

/** The import machine with the console's actors: the worker, the API, the memory of mappings. */
export function statementImportWithConsole(preview: { current: PreviewState }, onChange: () => void) {
  return statementImportMachine.provide({
    actors: {
      read: fromPromise<StatementPreviewOutcome, StatementReadRequest>(async ({ input, signal }) => {
        const rows: StatementPreviewRows = new PreviewRows();
        preview.current = { rows, details: null, known: new Map() };
        onChange();
        const { outcome, details } = await previewInWorker(
          input.file as File,
          {
            mapping: input.mapping,
            remembered: rememberedMappings<CsvField>(MEMORY),
            accountIban: input.accountIban,
          },
          rows,
          signal,
        );
        preview.current = { ...preview.current, details };
        onChange();
        return outcome;
      }),
      known: fromPromise<KnownLinesOutcome, { statements: readonly KnownLinesQuestion[] }>(
        async ({ input, signal }) => {
          const known = new Map<string, KnownLine>();
          for (const statement of input.statements)
            for (let start = 0; start < statement.keys.length; start += KNOWN_LINES_MAX_KEYS) {
              signal.throwIfAborted();
              const keys = statement.keys.slice(start, start + KNOWN_LINES_MAX_KEYS);
              const answer = await fetchKnownLines({ ...statement, keys });
              for (const line of answer.known) known.set(line.key, line);
            }
          preview.current = { ...preview.current, known };
          onChange();
          return knownOutcome(
            input.statements.flatMap((statement) => statement.keys),
            known,
          );
        },
      ),
      submit: fromPromise<StatementImportJobView, StatementSubmitRequest>(async ({ input }) => {
        const answer = await startStatementImport({
          file: input.file as File,
          fileName: input.file.name,
          mapping: input.mapping,
          expectedLines: input.expectedLines,
          expectedTotalCents: input.expectedTotalCents,
          idempotencyKey: input.idempotencyKey,
          accountIban: input.accountIban,
          mismatchNote: input.mismatchNote,
        });
        return answer.job;
      }),
      poll: fromPromise<StatementImportJobView, { jobId: string }>(async ({ input, signal }) => {
        await sleep(POLL_MS, signal);
        return fetchStatementImport(input.jobId);
      }),
    },
    actions: {
      rememberMapping: (_, params) => rememberMapping(MEMORY, params.header, params.mapping),
    },
  });
}

/** How many lines are new, how many known, and from which earlier files (most lines first). */
export function knownOutcome(
  keys: readonly string[],
  known: ReadonlyMap<string, KnownLine>,
): KnownLinesOutcome {
  const files = new Map<string, { statementFileId: string; fileName: string; lines: number }>();
  let knownLines = 0;
  for (const key of keys) {
    const line = known.get(key);
    if (!line) continue;
    knownLines++;
    const file = files.get(line.statementFileId) ?? {
      statementFileId: line.statementFileId,
      fileName: line.fileName,
      lines: 0,
    };
    file.lines++;
    files.set(line.statementFileId, file);
  }
  return {
    newLines: keys.length - knownLines,
    knownLines,
    files: [...files.values()].sort((a, b) => b.lines - a.lines),
  };
}

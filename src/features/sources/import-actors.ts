import { fromPromise } from 'xstate';
import type { ProviderCsvField } from '../../../domain/sources/provider-csv';
import type { SourceKind } from '../../../domain/sources/source-ids';
import {
  type KnownSourceRowsOutcome,
  type SourceImportJobView,
  type SourcePreviewOutcome,
  type SourceReadRequest,
  type SourceSubmitRequest,
  sourceImportMachine,
} from '../../../machines/source-import';
import {
  fetchKnownSourceRows,
  fetchSourceImport,
  type KnownSourceRow,
  startSourceImport,
} from '../../api/sources';
import { rememberedMappings, rememberMapping } from '../../kernel/column-mappings';
import { PreviewRows } from '../../kernel/preview-rows';
import { KNOWN_SOURCE_IDS_MAX } from './limits';
import { previewSourceInWorker, type SourcePreviewRows } from './preview-client';
import type { SourcePreviewDetails } from './preview-protocol';

/** Where the collector mappings the admin confirmed are remembered, by header. */
const MEMORY = 'collector-csv-mappings';
/** How often the import's progress is asked. */
const POLL_MS = 500;

/** What the screen shows beside the flow's own context: the rows, the file's details, the known rows. */
export interface SourcePreviewState {
  rows: SourcePreviewRows;
  details: SourcePreviewDetails | null;
  known: Map<string, KnownSourceRow>;
}

export const emptySourcePreview = (): SourcePreviewState => ({
  rows: new PreviewRows(),
  details: null,
  known: new Map(),
});

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

/** How many rows are new, how many known, and from which earlier files (most rows first). */
export function knownSourceOutcome(
  ids: readonly string[],
  known: ReadonlyMap<string, KnownSourceRow>,
): KnownSourceRowsOutcome {
  const files = new Map<string, { sourceFileId: string; fileName: string; rows: number }>();
  let knownRows = 0;
  for (const id of ids) {
    const row = known.get(id);
    if (!row) continue;
    knownRows++;
    const file = files.get(row.sourceFileId) ?? {
      sourceFileId: row.sourceFileId,
      fileName: row.fileName,
      rows: 0,
    };
    file.rows++;
    files.set(row.sourceFileId, file);
  }
  return {
    newRows: ids.length - knownRows,
    knownRows,
    files: [...files.values()].sort((a, b) => b.rows - a.rows),
  };
}

/** The import machine with the console's actors: the worker, the API, the memory of collector mappings. */
export function sourceImportWithConsole(preview: { current: SourcePreviewState }, onChange: () => void) {
  return sourceImportMachine.provide({
    actors: {
      read: fromPromise<SourcePreviewOutcome, SourceReadRequest>(async ({ input, signal }) => {
        preview.current = emptySourcePreview();
        onChange();
        const { outcome, details } = await previewSourceInWorker(
          input.file as File,
          {
            kind: input.kind,
            mapping: input.mapping,
            remembered: rememberedMappings<ProviderCsvField>(MEMORY),
          },
          preview.current.rows,
          signal,
        );
        preview.current = { ...preview.current, details };
        onChange();
        return outcome;
      }),
      known: fromPromise<KnownSourceRowsOutcome, { kind: SourceKind; ids: readonly string[] }>(
        async ({ input, signal }) => {
          const known = new Map<string, KnownSourceRow>();
          for (let start = 0; start < input.ids.length; start += KNOWN_SOURCE_IDS_MAX) {
            signal.throwIfAborted();
            const answer = await fetchKnownSourceRows(
              input.kind,
              input.ids.slice(start, start + KNOWN_SOURCE_IDS_MAX),
            );
            for (const row of answer.known) known.set(row.id, row);
          }
          preview.current = { ...preview.current, known };
          onChange();
          return knownSourceOutcome(input.ids, known);
        },
      ),
      submit: fromPromise<SourceImportJobView, SourceSubmitRequest>(async ({ input }) => {
        const answer = await startSourceImport({
          file: input.file as File,
          fileName: input.file.name,
          kind: input.kind,
          mapping: input.mapping,
          expectedRows: input.expectedRows,
          expectedTotalCents: input.expectedTotalCents,
          idempotencyKey: input.idempotencyKey,
        });
        return answer.job;
      }),
      poll: fromPromise<SourceImportJobView, { jobId: string }>(async ({ input, signal }) => {
        await sleep(POLL_MS, signal);
        return fetchSourceImport(input.jobId);
      }),
    },
    actions: {
      rememberMapping: (_, params) => rememberMapping(MEMORY, params.header, params.mapping),
    },
  });
}

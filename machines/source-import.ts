import { assign, fromPromise, setup } from 'xstate';
import { MAX_FILE_BYTES } from '../contract/limits';
import { REFUSAL_STATUSES } from '../contract/refusal-codes';
import type { ProviderCsvMapping } from '../domain/sources/provider-csv';
import type { SourceKind } from '../domain/sources/source-ids';
import { errorCodeOf } from './session';
import type { ChosenFile } from './statement-import';

/**
 * A refusal as the screen shows it: its code (translated under `errorMessages.` — the readers' and the
 * server's — or, for the screen's own, under the screen's "refused" words), the line of the file and the facts
 * beside the words (both numbers of a mismatch, the missing columns, the container the bytes are).
 */
export interface SourceRefusalView {
  code: string;
  line?: number;
  facts: Record<string, unknown>;
}

/**
 * What the preview worker decided, as the flow reads it (the screen keeps the rows beside it). `kind`:
 * the one chosen, else the one the bytes are (null when they are none of the three); `refusal`: the
 * reader's, or `SOURCE_NOT_THIS_KIND` when the bytes cannot be the kind chosen.
 */
export interface SourcePreviewOutcome {
  kind: SourceKind | null;
  refusal: SourceRefusalView | null;
  /** Rows as `sourceEntries` counts them (domain/sources/source-ids.ts), and their total in cents. */
  rows: number;
  totalCents: number;
  /** Each row's source id, in the rows' order: what the server is asked about. */
  ids: readonly string[];
  /**
   * A collector's report: its header and the mapping read with; `chosen` false when no mapping was
   * given or remembered for this header, so the file was not read yet and the admin picks the columns.
   */
  csv: { header: readonly string[]; mapping: ProviderCsvMapping; chosen: boolean } | null;
}

/** The server's answer for the preview's ids: how many are new, and the earlier files holding the rest. */
export interface KnownSourceRowsOutcome {
  newRows: number;
  knownRows: number;
  files: readonly { sourceFileId: string; fileName: string; rows: number }[];
}

export interface SourceImportJobView {
  id: string;
  fileName: string;
  status: 'RUNNING' | 'DONE' | 'FAILED';
  phase: string;
  done: number;
  total: number;
  result: null | {
    sourceFileId: string;
    newRows: number;
    duplicatesSkipped: number;
    payouts: number | null;
    documents: number | null;
    creditNotes: number | null;
    cancelled: number | null;
    linked: number;
    unlinked: number;
  };
  errorCode: string | null;
  /** A job failed on the official XSD (`SAFT_SCHEMA_INVALID`): its first complaints, `line N: message`. */
  schemaErrors?: readonly string[];
}

export interface SourceReadRequest {
  file: ChosenFile;
  /** The admin's choice; null: the bytes decide. */
  kind: SourceKind | null;
  /** The collector mapping the admin applied (null: the one remembered for the header, if any). */
  mapping: ProviderCsvMapping | null;
}

export interface SourceSubmitRequest {
  file: ChosenFile;
  kind: SourceKind;
  mapping: ProviderCsvMapping | null;
  expectedRows: number;
  expectedTotalCents: number;
  idempotencyKey: string;
}

export interface SourceImportContext {
  file: ChosenFile | null;
  /** The kind the admin picked (null: the bytes decide); kept from one file to the next. */
  kind: SourceKind | null;
  mapping: ProviderCsvMapping | null;
  preview: SourcePreviewOutcome | null;
  known: KnownSourceRowsOutcome | null;
  knownFailed: boolean;
  idempotencyKey: string | null;
  job: SourceImportJobView | null;
  refusal: SourceRefusalView | null;
  error: string | null;
}

export type SourceImportEvent =
  | { type: 'kind.choose'; kind: SourceKind | null }
  | { type: 'file.chosen'; file: ChosenFile }
  | { type: 'mapping.apply'; mapping: ProviderCsvMapping }
  | { type: 'mapping.edit' }
  | { type: 'submit'; idempotencyKey: string }
  | { type: 'retry' }
  | { type: 'cancel' };

const notProvided = (name: string) => () => {
  throw new Error(`sourceImport machine: actor "${name}" must be provided`);
};

/** Everything but the file and the kind the admin picked. */
const FRESH = {
  file: null,
  mapping: null,
  preview: null,
  known: null,
  knownFailed: false,
  idempotencyKey: null,
  job: null,
  refusal: null,
  error: null,
} satisfies Omit<SourceImportContext, 'kind'>;

/**
 * Codes of a refused upload that no retry can change: every 4xx refusal (the readers', the source
 * import's, a file too large); anything else (the network, a 5xx) is a failure the admin may retry.
 */
function refusedByServer(error: unknown): boolean {
  const code = errorCodeOf(error);
  if (code === 'PAYLOAD_TOO_LARGE') return true;
  const status = (REFUSAL_STATUSES as Record<string, number>)[code];
  return status !== undefined && status >= 400 && status < 500 && code !== 'SOURCE_IMPORT_NOT_FOUND';
}

/** The refusal body's facts beside its code (`ApiError.details`, contract/source-import.ts). */
function refusalOf(error: unknown): SourceRefusalView {
  const details = ((error as { details?: unknown } | null)?.details ?? {}) as Record<string, unknown>;
  const { line, ...facts } = details;
  return { code: errorCodeOf(error), ...(typeof line === 'number' ? { line } : {}), facts };
}

const CHOOSE = { target: 'choosing' as const, actions: 'startWithFile' as const };
/** Another kind picked with a file on screen: the file is read again as that kind (its size checked again). */
const REREAD_AS = { target: 'choosing' as const, actions: 'keepFileAsKind' as const };
const CANCEL = { target: 'idle' as const, actions: 'forget' as const };

/** What the preview answers to, before and after the server said which rows are new. */
const PREVIEW_EVENTS = {
  'file.chosen': CHOOSE,
  'kind.choose': REREAD_AS,
  submit: { target: 'submitting', actions: 'keepKey' },
  'mapping.edit': { guard: 'isCollector', target: 'mapping' },
  cancel: CANCEL,
} as const;

/**
 * Importing a payment provider's payouts or an invoicing program's invoices (issue 31), as a bank
 * statement is imported: the kind is picked or left to the bytes; a file is chosen (over 40 MB: refused
 * before it is read) → read in a worker (a collector's CSV without a mapping for its header: the admin
 * picks its columns, remembered for that header, and it is read again) → refused there with the reader's
 * code and facts, or previewed while the server is asked which rows it holds (all of them: nothing new)
 * → submitting (the original bytes, the kind, the collector's mapping, the preview's count and total;
 * a second Enter sends nothing) → importing (the job polled) → imported | refused | failed (retry sends
 * the same file with the same idempotency key). Picking another kind with a file on screen reads it again.
 */
export const sourceImportMachine = setup({
  types: {
    context: {} as SourceImportContext,
    events: {} as SourceImportEvent,
  },
  actors: {
    read: fromPromise<SourcePreviewOutcome, SourceReadRequest>(notProvided('read')),
    known: fromPromise<KnownSourceRowsOutcome, { kind: SourceKind; ids: readonly string[] }>(
      notProvided('known'),
    ),
    submit: fromPromise<SourceImportJobView, SourceSubmitRequest>(notProvided('submit')),
    poll: fromPromise<SourceImportJobView, { jobId: string }>(notProvided('poll')),
  },
  actions: {
    startWithFile: assign(({ event }) => ({
      ...FRESH,
      file: event.type === 'file.chosen' ? event.file : null,
    })),
    forget: assign(() => ({ ...FRESH })),
    keepFileAsKind: assign(({ context, event }) =>
      event.type === 'kind.choose' ? { ...FRESH, file: context.file, kind: event.kind } : {},
    ),
    keepKey: assign(({ event }) => (event.type === 'submit' ? { idempotencyKey: event.idempotencyKey } : {})),
    // The console writes it to localStorage by header; tests record it.
    rememberMapping: (_, _params: { header: readonly string[]; mapping: ProviderCsvMapping }) => {},
    // The console refreshes the files list here.
    reportImported: (_, _params: { job: SourceImportJobView }) => {},
  },
  guards: {
    tooBig: ({ context }) => (context.file?.size ?? 0) > MAX_FILE_BYTES,
    readRefused: (_, params: { outcome: SourcePreviewOutcome }) => params.outcome.refusal !== null,
    mappingToChoose: (_, params: { outcome: SourcePreviewOutcome }) => params.outcome.csv?.chosen === false,
    isCollector: ({ context }) => context.preview?.csv != null,
    nothingNew: (_, params: { known: KnownSourceRowsOutcome }) => params.known.newRows === 0,
    refusedByServer: (_, params: { error: unknown }) => refusedByServer(params.error),
    jobDone: (_, params: { job: SourceImportJobView }) => params.job.status === 'DONE',
    jobFailed: (_, params: { job: SourceImportJobView }) => params.job.status === 'FAILED',
  },
}).createMachine({
  id: 'sourceImport',
  initial: 'idle',
  context: { ...FRESH, kind: null },
  states: {
    idle: {
      on: {
        'file.chosen': CHOOSE,
        'kind.choose': { actions: assign({ kind: ({ event }) => event.kind }) },
      },
    },
    // Transient: the size is checked before a byte is read.
    choosing: {
      always: [
        {
          guard: 'tooBig',
          target: 'refused',
          actions: assign({ refusal: { code: 'FILE_TOO_LARGE', facts: {} } }),
        },
        { target: 'reading' },
      ],
    },
    reading: {
      tags: ['busy'],
      invoke: {
        id: 'read',
        src: 'read',
        input: ({ context }) => ({
          file: context.file as ChosenFile,
          kind: context.kind,
          mapping: context.mapping,
        }),
        onDone: [
          {
            guard: { type: 'readRefused', params: ({ event }) => ({ outcome: event.output }) },
            target: 'refused',
            actions: assign({
              preview: ({ event }) => event.output,
              refusal: ({ event }) => event.output.refusal,
            }),
          },
          {
            guard: { type: 'mappingToChoose', params: ({ event }) => ({ outcome: event.output }) },
            target: 'mapping',
            actions: assign({ preview: ({ event }) => event.output }),
          },
          { target: 'checking', actions: assign({ preview: ({ event }) => event.output }) },
        ],
        // The worker died (a file it could not hold, a bug): the screen's own refusal, nothing sent.
        onError: {
          target: 'refused',
          actions: assign({ refusal: { code: 'PREVIEW_FAILED', facts: {} } }),
        },
      },
      on: { 'file.chosen': CHOOSE, 'kind.choose': REREAD_AS, cancel: CANCEL },
    },
    // A collector's report: the admin picks (or confirms) its columns; the file is read again with them.
    mapping: {
      on: {
        'file.chosen': CHOOSE,
        'kind.choose': REREAD_AS,
        'mapping.apply': {
          target: 'reading',
          actions: [
            assign({ mapping: ({ event }) => event.mapping }),
            {
              type: 'rememberMapping',
              params: ({ context, event }) => ({
                header: context.preview?.csv?.header ?? [],
                mapping: event.mapping,
              }),
            },
          ],
        },
        cancel: CANCEL,
      },
    },
    // The preview is shown while the server is asked which of its rows it holds.
    checking: {
      entry: assign({ known: null, knownFailed: false }),
      invoke: {
        id: 'known',
        src: 'known',
        input: ({ context }) => {
          const preview = context.preview as SourcePreviewOutcome;
          return { kind: preview.kind as SourceKind, ids: preview.ids };
        },
        onDone: [
          {
            guard: { type: 'nothingNew', params: ({ event }) => ({ known: event.output }) },
            target: 'refused',
            actions: assign({
              known: ({ event }) => event.output,
              refusal: { code: 'SOURCE_NOTHING_NEW', facts: {} },
            }),
          },
          { target: 'preview', actions: assign({ known: ({ event }) => event.output }) },
        ],
        // The server's count is missing, not the preview: it can still be sent (the server checks again).
        onError: { target: 'preview', actions: assign({ knownFailed: true }) },
      },
      on: PREVIEW_EVENTS,
    },
    preview: { on: PREVIEW_EVENTS },
    submitting: {
      tags: ['busy', 'sending'],
      invoke: {
        id: 'submit',
        src: 'submit',
        input: ({ context }) => submitRequest(context),
        onDone: { target: 'importing', actions: assign({ job: ({ event }) => event.output }) },
        onError: [
          {
            guard: { type: 'refusedByServer', params: ({ event }) => ({ error: event.error }) },
            target: 'refused',
            actions: assign({ refusal: ({ event }) => refusalOf(event.error) }),
          },
          { target: 'failed', actions: assign({ error: ({ event }) => errorCodeOf(event.error) }) },
        ],
      },
    },
    importing: {
      tags: ['busy', 'sending'],
      invoke: {
        id: 'poll',
        src: 'poll',
        input: ({ context }) => ({ jobId: (context.job as SourceImportJobView).id }),
        onDone: [
          {
            guard: { type: 'jobDone', params: ({ event }) => ({ job: event.output }) },
            target: 'imported',
            actions: [
              assign({ job: ({ event }) => event.output }),
              { type: 'reportImported', params: ({ event }) => ({ job: event.output }) },
            ],
          },
          {
            guard: { type: 'jobFailed', params: ({ event }) => ({ job: event.output }) },
            target: 'failed',
            actions: assign({
              job: ({ event }) => event.output,
              error: ({ event }) => event.output.errorCode,
            }),
          },
          // Still running: the progress is shown and the job asked again.
          { target: 'importing', reenter: true, actions: assign({ job: ({ event }) => event.output }) },
        ],
        onError: { target: 'failed', actions: assign({ error: ({ event }) => errorCodeOf(event.error) }) },
      },
    },
    // Retry keeps the file, its mapping and the idempotency key: the server answers the job it may have.
    failed: {
      on: {
        'file.chosen': CHOOSE,
        retry: { target: 'submitting', actions: assign({ error: null, job: null }) },
        'kind.choose': REREAD_AS,
        cancel: CANCEL,
      },
    },
    imported: {
      on: {
        'file.chosen': CHOOSE,
        'kind.choose': { target: 'idle', actions: assign(({ event }) => ({ ...FRESH, kind: event.kind })) },
        cancel: CANCEL,
      },
    },
    // A file refused as the kind picked (or by its bytes) is read again when another kind is picked.
    refused: {
      on: {
        'file.chosen': CHOOSE,
        'kind.choose': REREAD_AS,
        // A collector's columns the reader refused: picked again.
        'mapping.edit': { guard: 'isCollector', target: 'mapping' },
        cancel: CANCEL,
      },
    },
  },
});

function submitRequest(context: SourceImportContext): SourceSubmitRequest {
  const preview = context.preview as SourcePreviewOutcome;
  return {
    file: context.file as ChosenFile,
    kind: preview.kind as SourceKind,
    mapping: preview.csv ? preview.csv.mapping : null,
    expectedRows: preview.rows,
    expectedTotalCents: preview.totalCents,
    idempotencyKey: context.idempotencyKey as string,
  };
}

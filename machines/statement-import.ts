import { assign, fromPromise, setup } from 'xstate';
import type { CsvMapping } from '../domain/statements/csv';
import type { StatementFormat } from '../domain/statements/types';
import { errorCodeOf } from './session';

/** The specification's maximum file size, 40 MB: a larger statement is refused before it is read. */
export const STATEMENT_MAX_BYTES = 41_943_040;

/** What the flow needs of the chosen file (a `File` in the console). */
export interface ChosenFile {
  readonly name: string;
  readonly size: number;
}

/**
 * What the parse in the worker decided, as the flow reads it (the screen keeps the rows beside it).
 * `problem`: `wrongFormat` = not a statement at all (binary, a PDF, …); `unreadable` = a statement
 * format whose lines could not be read.
 */
export interface StatementPreviewOutcome {
  format: StatementFormat;
  lineCount: number;
  totalCents: number;
  problem: 'wrongFormat' | 'unreadable' | null;
  /** The line keys (`statementLineKeys`), asked of the server to tell new lines from imported ones. */
  keys: readonly string[];
  /** CSV only: the header the mapping belongs to, the mapping used, and whether it was only guessed. */
  csv: { header: readonly string[]; mapping: CsvMapping; guessed: boolean } | null;
}

/** The server's answer for the preview's line keys. */
export interface KnownLinesOutcome {
  newLines: number;
  knownLines: number;
  /** Earlier files that already hold some of the lines. */
  files: readonly { statementFileId: string; fileName: string; lines: number }[];
}

export interface StatementImportJobView {
  id: string;
  fileName: string;
  status: 'RUNNING' | 'DONE' | 'FAILED';
  /** What the server is doing: waiting for another import, importing the lines, matching them. */
  phase: string;
  done: number;
  total: number;
  result: null | {
    statementFileId: string;
    newLines: number;
    duplicatesSkipped: number;
    matched: number;
    suggested: number;
    unmatched: number;
  };
  errorCode: string | null;
}

export interface StatementSubmitRequest {
  file: ChosenFile;
  mapping: CsvMapping | null;
  expectedLines: number;
  expectedTotalCents: number;
  idempotencyKey: string;
}

export const REFUSAL_REASONS = [
  'tooBig',
  'wrongFormat',
  'unreadable',
  'alreadyImported',
  'nothingNew',
  'previewMismatch',
  'hasErrors',
] as const;
export type RefusalReason = (typeof REFUSAL_REASONS)[number];

export interface StatementImportContext {
  file: ChosenFile | null;
  /** The mapping the admin chose for this file (null: the parser's guess or the remembered one). */
  mapping: CsvMapping | null;
  preview: StatementPreviewOutcome | null;
  known: KnownLinesOutcome | null;
  /** The server could not say which lines are new; the preview is still shown and can be sent. */
  knownFailed: boolean;
  idempotencyKey: string | null;
  job: StatementImportJobView | null;
  refusal: RefusalReason | null;
  /** The earlier file an "already imported" refusal names. */
  refusedBecauseOf: string | null;
  error: string | null;
}

export type StatementImportEvent =
  | { type: 'file.chosen'; file: ChosenFile }
  | { type: 'mapping.accept' }
  | { type: 'mapping.apply'; mapping: CsvMapping }
  | { type: 'mapping.edit' }
  | { type: 'submit'; idempotencyKey: string }
  | { type: 'retry' }
  | { type: 'cancel' };

const notProvided = (name: string) => () => {
  throw new Error(`statementImport machine: actor "${name}" must be provided`);
};

/**
 * Choosing a file starts over with it from any state where nothing is on its way to the server
 * (submitting and importing do not listen); `choosing` checks the size before a byte is read.
 */
const CHOOSE = { target: 'choosing' as const, actions: 'startWithFile' as const };

/** What the preview answers to, before and after the server said which lines are new. */
const PREVIEW_EVENTS = {
  'file.chosen': CHOOSE,
  submit: { target: 'submitting', actions: 'keepKey' },
  'mapping.edit': { guard: 'isCsv', target: 'mapping' },
  cancel: { target: 'idle', actions: 'forget' },
} as const;

const FRESH: StatementImportContext = {
  file: null,
  mapping: null,
  preview: null,
  known: null,
  knownFailed: false,
  idempotencyKey: null,
  job: null,
  refusal: null,
  refusedBecauseOf: null,
  error: null,
};

/** Server refusals of an upload that no retry can change, by the reason the screen shows. */
const REFUSALS: Record<string, RefusalReason> = {
  FILE_TOO_LARGE: 'tooBig',
  PAYLOAD_TOO_LARGE: 'tooBig',
  STATEMENT_UNREADABLE: 'unreadable',
  STATEMENT_ALREADY_IMPORTED: 'alreadyImported',
  STATEMENT_NOTHING_NEW: 'nothingNew',
  STATEMENT_PREVIEW_MISMATCH: 'previewMismatch',
  STATEMENT_HAS_ERRORS: 'hasErrors',
};

function refusalOf(error: unknown): RefusalReason | null {
  return REFUSALS[errorCodeOf(error) ?? ''] ?? null;
}

/** The earlier file named by an "already imported" refusal (`details.fileName`). */
function earlierFileOf(error: unknown): string | null {
  const details = (error as { details?: { fileName?: unknown } } | null)?.details;
  return typeof details?.fileName === 'string' ? details.fileName : null;
}

/**
 * Importing a bank statement (issue 12 items 1–3): a file is chosen (over 40 MB: refused before it is
 * read) → read and parsed in a worker → (CSV with a guessed mapping: the admin accepts or edits it) →
 * preview, with the server's answer for new and already-imported lines → submitting (the original
 * bytes, the mapping, the expected count and total) → importing (the job polled) → imported | refused
 * (too big, wrong format, unreadable, already imported, nothing new, preview mismatch) | failed (retry
 * sends the same file with the same idempotency key). `submit` is not an event `submitting` listens to,
 * so a second Enter never sends twice.
 */
export const statementImportMachine = setup({
  types: {
    context: {} as StatementImportContext,
    events: {} as StatementImportEvent,
  },
  actors: {
    read: fromPromise<StatementPreviewOutcome, { file: ChosenFile; mapping: CsvMapping | null }>(
      notProvided('read'),
    ),
    known: fromPromise<KnownLinesOutcome, { keys: readonly string[] }>(notProvided('known')),
    submit: fromPromise<StatementImportJobView, StatementSubmitRequest>(notProvided('submit')),
    poll: fromPromise<StatementImportJobView, { jobId: string }>(notProvided('poll')),
  },
  actions: {
    startWithFile: assign(({ event }) => ({
      ...FRESH,
      file: event.type === 'file.chosen' ? event.file : null,
    })),
    forget: assign(() => ({ ...FRESH })),
    keepKey: assign({
      idempotencyKey: ({ event }) => (event.type === 'submit' ? event.idempotencyKey : null),
    }),
    // The console writes it to localStorage by header; tests record it.
    rememberMapping: (_, _params: { header: readonly string[]; mapping: CsvMapping }) => {},
    // The console refreshes the statement files and lines here.
    reportImported: (_, _params: { job: StatementImportJobView }) => {},
  },
  guards: {
    tooBig: (_, params: { file: ChosenFile }) => params.file.size > STATEMENT_MAX_BYTES,
    wrongFormat: (_, params: { outcome: StatementPreviewOutcome }) =>
      params.outcome.problem === 'wrongFormat',
    unreadable: (_, params: { outcome: StatementPreviewOutcome }) => params.outcome.problem === 'unreadable',
    mappingGuessed: (_, params: { outcome: StatementPreviewOutcome }) => params.outcome.csv?.guessed === true,
    nothingNew: (_, params: { known: KnownLinesOutcome }) => params.known.newLines === 0,
    isCsv: ({ context }) => context.preview?.csv != null,
    refused: (_, params: { error: unknown }) => refusalOf(params.error) !== null,
    jobDone: (_, params: { job: StatementImportJobView }) => params.job.status === 'DONE',
    jobFailed: (_, params: { job: StatementImportJobView }) => params.job.status === 'FAILED',
  },
}).createMachine({
  id: 'statementImport',
  initial: 'idle',
  context: FRESH,
  states: {
    idle: { on: { 'file.chosen': CHOOSE } },
    // Transient: the size is checked before a byte is read.
    choosing: {
      always: [
        {
          guard: { type: 'tooBig', params: ({ context }) => ({ file: context.file as ChosenFile }) },
          target: 'refused',
          actions: assign({ refusal: 'tooBig' }),
        },
        { target: 'reading' },
      ],
    },
    reading: {
      tags: ['busy'],
      invoke: {
        id: 'read',
        src: 'read',
        input: ({ context }) => ({ file: context.file as ChosenFile, mapping: context.mapping }),
        onDone: [
          {
            guard: { type: 'wrongFormat', params: ({ event }) => ({ outcome: event.output }) },
            target: 'refused',
            actions: assign({ preview: ({ event }) => event.output, refusal: 'wrongFormat' }),
          },
          {
            guard: { type: 'unreadable', params: ({ event }) => ({ outcome: event.output }) },
            target: 'refused',
            actions: assign({ preview: ({ event }) => event.output, refusal: 'unreadable' }),
          },
          {
            guard: { type: 'mappingGuessed', params: ({ event }) => ({ outcome: event.output }) },
            target: 'mapping',
            actions: assign({ preview: ({ event }) => event.output }),
          },
          { target: 'checking', actions: assign({ preview: ({ event }) => event.output }) },
        ],
        onError: { target: 'refused', actions: assign({ refusal: 'unreadable' }) },
      },
      on: { 'file.chosen': CHOOSE, cancel: { target: 'idle', actions: 'forget' } },
    },
    mapping: {
      on: {
        'file.chosen': CHOOSE,
        'mapping.accept': {
          target: 'checking',
          actions: {
            type: 'rememberMapping',
            params: ({ context }) => mappingOf(context),
          },
        },
        'mapping.apply': {
          target: 'reading',
          actions: [
            assign({ mapping: ({ event }) => event.mapping }),
            {
              type: 'rememberMapping',
              params: ({ context, event }) => ({ header: mappingOf(context).header, mapping: event.mapping }),
            },
          ],
        },
        cancel: { target: 'idle', actions: 'forget' },
      },
    },
    // The preview is shown while the server is asked which of its lines are new.
    checking: {
      // Each preview asks afresh: a changed mapping reads other lines.
      entry: assign({ known: null, knownFailed: false }),
      invoke: {
        id: 'known',
        src: 'known',
        input: ({ context }) => ({ keys: (context.preview as StatementPreviewOutcome).keys }),
        onDone: [
          {
            guard: { type: 'nothingNew', params: ({ event }) => ({ known: event.output }) },
            target: 'refused',
            actions: assign({
              known: ({ event }) => event.output,
              refusal: 'alreadyImported',
              refusedBecauseOf: ({ event }) => event.output.files[0]?.fileName ?? null,
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
            guard: { type: 'refused', params: ({ event }) => ({ error: event.error }) },
            target: 'refused',
            actions: assign({
              refusal: ({ event }) => refusalOf(event.error),
              refusedBecauseOf: ({ event }) => earlierFileOf(event.error),
            }),
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
        input: ({ context }) => ({ jobId: (context.job as StatementImportJobView).id }),
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
        // The job runs on the server whatever happened to one poll: ask again.
        onError: { target: 'failed', actions: assign({ error: ({ event }) => errorCodeOf(event.error) }) },
      },
    },
    // Retry keeps the file, its mapping and the idempotency key: the server answers the job it may have.
    failed: {
      on: {
        'file.chosen': CHOOSE,
        retry: { target: 'submitting', actions: assign({ error: null, job: null }) },
        cancel: { target: 'idle', actions: 'forget' },
      },
    },
    imported: {
      on: { 'file.chosen': CHOOSE, cancel: { target: 'idle', actions: 'forget' } },
    },
    refused: {
      on: { 'file.chosen': CHOOSE, cancel: { target: 'idle', actions: 'forget' } },
    },
  },
});

function mappingOf(context: StatementImportContext): { header: readonly string[]; mapping: CsvMapping } {
  const csv = context.preview?.csv;
  if (!csv) throw new Error('statementImport: no CSV mapping in the preview');
  return { header: csv.header, mapping: csv.mapping };
}

function submitRequest(context: StatementImportContext): StatementSubmitRequest {
  const preview = context.preview as StatementPreviewOutcome;
  return {
    file: context.file as ChosenFile,
    mapping: preview.csv ? preview.csv.mapping : null,
    expectedLines: preview.lineCount,
    expectedTotalCents: preview.totalCents,
    idempotencyKey: context.idempotencyKey as string,
  };
}

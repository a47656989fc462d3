import { assign, fromPromise, setup } from 'xstate';
import { MAX_FILE_BYTES } from '../contract/limits';
import { checkIban } from '../domain/iban';
import type { CsvMapping } from '../domain/statements/csv';
import type { StatementFormat, StatementInfo } from '../domain/statements/types';
import { errorCodeOf } from './session';

/** The longest note an "import anyway" carries (the server's `mismatchNote`: 1–500 characters). */
export const MISMATCH_NOTE_MAX = 500;

/** What the flow needs of the chosen file (a `File` in the console). */
export interface ChosenFile {
  readonly name: string;
  readonly size: number;
}

/**
 * One statement of the file (one account and period), as the preview read it: the parser's statement
 * (its `accountIban` null when the file names none — the admin gives it before the server is asked
 * anything; its entries and their keys the preview's `[firstEntry, firstEntry + entryCount)`) and the signed
 * sum of its entries, in cents.
 */
export type PreviewStatement = StatementInfo & { totalCents: number };

/** A statement whose balances do not add up: importing it is the admin's decision, with a note. */
export const balanceMismatch = (statement: PreviewStatement) =>
  statement.balance !== null && !statement.balance.consistent;

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
  /** One per account and period; their entries follow each other in the file's order. */
  statements: readonly PreviewStatement[];
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
    /** The file's statements, and its pending entries read but not imported. */
    statements: number;
    skipped: number;
  };
  errorCode: string | null;
}

/** What the worker is asked to read: the file, with the mapping and the account the admin gave. */
export interface StatementReadRequest {
  file: ChosenFile;
  mapping: CsvMapping | null;
  /** For the statements that name no account: their line keys are computed with it. */
  accountIban: string | null;
}

/** One statement's question to the server: which of its line keys were imported before, and why. */
export interface KnownLinesQuestion {
  accountIban: string;
  periodStart: string | null;
  periodEnd: string | null;
  statementId: string | null;
  sequence: string | null;
  /** The stated balances: a statement that opens with another's closing balance continues it. */
  openingBalanceCents: number | null;
  closingBalanceCents: number | null;
  keys: readonly string[];
}

export interface StatementSubmitRequest {
  file: ChosenFile;
  mapping: CsvMapping | null;
  expectedLines: number;
  expectedTotalCents: number;
  idempotencyKey: string;
  /** The account the admin gave for a file that names none. */
  accountIban: string | null;
  /** Why a statement whose balances do not add up is imported anyway. */
  mismatchNote: string | null;
}

export const REFUSAL_REASONS = [
  'tooBig',
  'wrongFormat',
  'unreadable',
  'empty',
  'currencyUnsupported',
  'controlCharacters',
  'alreadyImported',
  'nothingNew',
  'previewMismatch',
  'hasErrors',
  'balanceMismatch',
  'accountRequired',
  'accountInvalid',
] as const;
export type RefusalReason = (typeof REFUSAL_REASONS)[number];

export interface StatementImportContext {
  file: ChosenFile | null;
  /** The mapping the admin chose for this file (null: the parser's guess or the remembered one). */
  mapping: CsvMapping | null;
  /** The account the admin gave a file that names none (electronic format, mod-97 checked). */
  accountIban: string | null;
  /** The note of an "import anyway" (a statement whose balances do not add up), once submitted. */
  mismatchNote: string | null;
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
  | { type: 'account.choose'; accountIban: string }
  | { type: 'account.change' }
  | { type: 'submit'; idempotencyKey: string; mismatchNote?: string }
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
  // A statement whose balances do not add up is sent only with a note saying why ("import anyway").
  submit: { guard: 'mayImport', target: 'submitting', actions: 'keepSubmission' },
  'mapping.edit': { guard: 'isCsv', target: 'mapping' },
  'account.change': { guard: 'accountGiven', target: 'account' },
  cancel: { target: 'idle', actions: 'forget' },
} as const;

const FRESH: StatementImportContext = {
  file: null,
  mapping: null,
  accountIban: null,
  mismatchNote: null,
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
  STATEMENT_NOT_A_STATEMENT: 'wrongFormat',
  STATEMENT_EMPTY: 'empty',
  STATEMENT_CURRENCY_UNSUPPORTED: 'currencyUnsupported',
  STATEMENT_CONTROL_CHARACTERS: 'controlCharacters',
  STATEMENT_ALREADY_IMPORTED: 'alreadyImported',
  STATEMENT_NOTHING_NEW: 'nothingNew',
  STATEMENT_PREVIEW_MISMATCH: 'previewMismatch',
  STATEMENT_HAS_ERRORS: 'hasErrors',
  STATEMENT_BALANCE_MISMATCH: 'balanceMismatch',
  STATEMENT_ACCOUNT_REQUIRED: 'accountRequired',
  STATEMENT_ACCOUNT_INVALID: 'accountInvalid',
};

/**
 * A note the server takes: 1–500 characters, no control characters — a line break typed in the dialog
 * becomes a space, like any run of whitespace.
 */
const noteOf = (note: string | undefined): string | null => {
  const trimmed = (note ?? '').replace(/[\s\p{Cc}]+/gu, ' ').trim();
  return trimmed.length >= 1 && trimmed.length <= MISMATCH_NOTE_MAX ? trimmed : null;
};

/** Some statement of the file names no account (a bank CSV without its account line). */
const needsAccount = (preview: StatementPreviewOutcome | null) =>
  preview?.statements.some((statement) => statement.accountIban === null) === true;

function refusalOf(error: unknown): RefusalReason | null {
  return REFUSALS[errorCodeOf(error) ?? ''] ?? null;
}

/** The earlier file named by an "already imported" refusal (`details.fileName`). */
function earlierFileOf(error: unknown): string | null {
  const details = (error as { details?: { fileName?: unknown } } | null)?.details;
  return typeof details?.fileName === 'string' ? details.fileName : null;
}

/**
 * Importing a bank statement (issue 12 items 1–3, issue 27): a file is chosen (over 40 MB: refused before
 * it is read) → read and parsed in a worker → (CSV with a guessed mapping: the admin accepts or edits it)
 * → (a file that names no account: the admin gives one, and the file is read again with it, since its
 * line keys hold the account) → preview, with the server's answer for new and already-imported lines →
 * submitting (the original bytes, the mapping, the account given, the expected count and total, and —
 * when a statement's balances do not add up — the admin's note, without which nothing is sent) →
 * importing (the job polled) → imported | refused (too big, not a statement, unreadable, already
 * imported, nothing new, preview mismatch, …) | failed (retry sends the same file with the same
 * idempotency key). `submit` is not an event `submitting` listens to, so a second Enter never sends twice.
 */
export const statementImportMachine = setup({
  types: {
    context: {} as StatementImportContext,
    events: {} as StatementImportEvent,
  },
  actors: {
    read: fromPromise<StatementPreviewOutcome, StatementReadRequest>(notProvided('read')),
    known: fromPromise<KnownLinesOutcome, { statements: readonly KnownLinesQuestion[] }>(
      notProvided('known'),
    ),
    submit: fromPromise<StatementImportJobView, StatementSubmitRequest>(notProvided('submit')),
    poll: fromPromise<StatementImportJobView, { jobId: string }>(notProvided('poll')),
  },
  actions: {
    startWithFile: assign(({ event }) => ({
      ...FRESH,
      file: event.type === 'file.chosen' ? event.file : null,
    })),
    forget: assign(() => ({ ...FRESH })),
    keepSubmission: assign(({ event, context }) =>
      event.type === 'submit'
        ? {
            idempotencyKey: event.idempotencyKey,
            mismatchNote: context.preview?.statements.some(balanceMismatch)
              ? noteOf(event.mismatchNote)
              : null,
          }
        : {},
    ),
    // The console writes it to localStorage by header; tests record it.
    rememberMapping: (_, _params: { header: readonly string[]; mapping: CsvMapping }) => {},
    // The console refreshes the statement files and lines here.
    reportImported: (_, _params: { job: StatementImportJobView }) => {},
  },
  guards: {
    tooBig: (_, params: { file: ChosenFile }) => params.file.size > MAX_FILE_BYTES,
    wrongFormat: (_, params: { outcome: StatementPreviewOutcome }) =>
      params.outcome.problem === 'wrongFormat',
    unreadable: (_, params: { outcome: StatementPreviewOutcome }) => params.outcome.problem === 'unreadable',
    mappingGuessed: (_, params: { outcome: StatementPreviewOutcome }) => params.outcome.csv?.guessed === true,
    nothingNew: (_, params: { known: KnownLinesOutcome }) => params.known.newLines === 0,
    isCsv: ({ context }) => context.preview?.csv != null,
    needsAccount: ({ context }) => context.accountIban === null && needsAccount(context.preview),
    accountGiven: ({ context }) => context.accountIban !== null,
    validIban: ({ event }) => event.type === 'account.choose' && checkIban(event.accountIban).valid,
    mayImport: ({ context, event }) =>
      event.type === 'submit' &&
      (!context.preview?.statements.some(balanceMismatch) || noteOf(event.mismatchNote) !== null),
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
        input: ({ context }) => ({
          file: context.file as ChosenFile,
          mapping: context.mapping,
          accountIban: context.accountIban,
        }),
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
          { target: 'deciding', actions: assign({ preview: ({ event }) => event.output }) },
        ],
        onError: { target: 'refused', actions: assign({ refusal: 'unreadable' }) },
      },
      on: { 'file.chosen': CHOOSE, cancel: { target: 'idle', actions: 'forget' } },
    },
    mapping: {
      on: {
        'file.chosen': CHOOSE,
        'mapping.accept': {
          target: 'deciding',
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
    // Transient: a file that names no account waits for the admin's before the server is asked anything.
    deciding: {
      always: [{ guard: 'needsAccount', target: 'account' }, { target: 'checking' }],
    },
    // The rows are shown; the account is picked among the known ones or typed (checked mod-97), and the
    // file read again with it: its line keys hold the account.
    account: {
      on: {
        'file.chosen': CHOOSE,
        'account.choose': {
          guard: 'validIban',
          target: 'reading',
          actions: assign({
            accountIban: ({ event }) => checkIban(event.accountIban).iban,
          }),
        },
        'mapping.edit': { guard: 'isCsv', target: 'mapping' },
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
        input: ({ context }) => ({ statements: knownLinesQuestions(context) }),
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

/** One question per statement, its account the file's own or the one the admin gave. */
function knownLinesQuestions(context: StatementImportContext): KnownLinesQuestion[] {
  const preview = context.preview as StatementPreviewOutcome;
  return preview.statements.map((statement) => ({
    accountIban: statement.accountIban ?? (context.accountIban as string),
    periodStart: statement.periodStart,
    periodEnd: statement.periodEnd,
    statementId: statement.statementId,
    sequence: statement.sequence,
    openingBalanceCents: statement.balance?.opening ?? null,
    closingBalanceCents: statement.balance?.closing ?? null,
    keys: preview.keys.slice(statement.firstEntry, statement.firstEntry + statement.entryCount),
  }));
}

function submitRequest(context: StatementImportContext): StatementSubmitRequest {
  const preview = context.preview as StatementPreviewOutcome;
  return {
    file: context.file as ChosenFile,
    mapping: preview.csv ? preview.csv.mapping : null,
    expectedLines: preview.lineCount,
    expectedTotalCents: preview.totalCents,
    idempotencyKey: context.idempotencyKey as string,
    accountIban: context.accountIban,
    mismatchNote: context.mismatchNote,
  };
}

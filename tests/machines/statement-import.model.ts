import { expect } from 'vitest';
import type { AnyMachineSnapshot } from 'xstate';
import { statementImportMachine } from '../../machines/statement-import';
import type { Expected, MachineModel, ModelEvent, Observed } from './model';

/**
 * Importing a bank statement as issue 12 (items 1–3) describes it, written without reading the machine:
 * a file over the specification's 40 MB is refused before it is read; otherwise it is parsed (in a
 * worker); a CSV whose column mapping was only guessed is shown for the admin to accept or change (a
 * changed mapping parses the file again and is remembered for that header, as is an accepted guess);
 * the preview asks the server which lines are new — none new is "already imported", naming the earlier
 * file; submit sends the file, its mapping and the preview's line count and total once (a second Enter
 * sends nothing); the job is polled until done (the summary) or failed (retry sends the same file with
 * the same key); a refusal says why and keeps nothing.
 */

const SMALL = { name: 'extrato.csv', size: 2_048 };
const LIMIT = { name: 'limite.xml', size: 41_943_040 };
const BIG = { name: 'grande.csv', size: 41_943_041 };
const HEADER = ['Data', 'Descrição', 'Montante'];
const GUESSED = { bookingDate: 'Data', description: 'Descrição', amount: 'Montante' };
const CHOSEN = { bookingDate: 0, description: 1, amount: 2, delimiter: ';' };
const KEYS = ['a'.repeat(64), 'b'.repeat(64), 'c'.repeat(64)];
const base = { lineCount: 3, totalCents: -4_610, problem: null, keys: KEYS };
const CAMT = { ...base, format: 'camt053', csv: null };
const CSV_GUESSED = { ...base, format: 'csv', csv: { header: HEADER, mapping: GUESSED, guessed: true } };
const CSV_KNOWN_MAPPING = {
  ...base,
  format: 'csv',
  csv: { header: HEADER, mapping: CHOSEN, guessed: false },
};
const NEW = {
  newLines: 2,
  knownLines: 1,
  files: [{ statementFileId: 's0', fileName: 'setembro.xml', lines: 1 }],
};
const NOTHING_NEW = {
  newLines: 0,
  knownLines: 3,
  files: [{ statementFileId: 's0', fileName: 'outubro.xml', lines: 3 }],
};
const job = (status: string, done: number, result: unknown = null, errorCode: string | null = null) => ({
  id: 'job-1',
  status,
  done,
  total: 3,
  result,
  errorCode,
});
const SUMMARY = {
  statementFileId: 's1',
  newLines: 2,
  duplicatesSkipped: 1,
  matched: 1,
  suggested: 0,
  unmatched: 1,
};

type File = { name: string; size: number };
type Outcome = typeof CAMT | typeof CSV_GUESSED | typeof CSV_KNOWN_MAPPING;

export interface StatementImportExpected extends Expected {
  file: File | null;
  /** The mapping the admin applied (sent with every later read). */
  applied: unknown;
  preview: Outcome | null;
  known: unknown;
  knownFailed: boolean;
  key: string | null;
  /** The job as last seen: its progress while importing, its summary once done. */
  job: ReturnType<typeof job> | null;
  refusal: string | null;
  refusedBecauseOf: string | null;
  error: string | null;
  remembered: unknown[];
  reports: unknown[];
}

const fresh = {
  file: null,
  applied: null,
  preview: null,
  known: null,
  knownFailed: false,
  key: null,
  job: null,
  refusal: null,
  refusedBecauseOf: null,
  error: null,
} as const;

const read = (e: StatementImportExpected): StatementImportExpected => ({
  ...e,
  state: 'reading',
  requests: [...e.requests, { actor: 'read', input: { file: e.file, mapping: e.applied } }],
});
const choose = (e: StatementImportExpected, ev: ModelEvent): StatementImportExpected => {
  const file = ev.file as File;
  // Refused on its size alone: nothing read, nothing sent.
  if (file.size > 40 * 1024 * 1024) return { ...e, ...fresh, state: 'refused', file, refusal: 'tooBig' };
  return read({ ...e, ...fresh, file });
};
const check = (e: StatementImportExpected): StatementImportExpected => ({
  ...e,
  state: 'checking',
  known: null,
  knownFailed: false,
  requests: [...e.requests, { actor: 'known', input: { keys: KEYS } }],
});
const submit = (e: StatementImportExpected, key: string): StatementImportExpected => ({
  ...e,
  state: 'submitting',
  key,
  job: null,
  error: null,
  requests: [
    ...e.requests,
    {
      actor: 'submit',
      input: {
        file: e.file,
        mapping: e.preview?.csv ? e.preview.csv.mapping : null,
        expectedLines: 3,
        expectedTotalCents: -4_610,
        idempotencyKey: key,
      },
    },
  ],
});
const poll = (e: StatementImportExpected, seen: ReturnType<typeof job>): StatementImportExpected => ({
  ...e,
  state: 'importing',
  job: seen,
  requests: [...e.requests, { actor: 'poll', input: { jobId: 'job-1' } }],
});
const startOver = (e: StatementImportExpected): StatementImportExpected => ({
  ...e,
  ...fresh,
  state: 'idle',
});
const refuse = (e: StatementImportExpected, refusal: string, because: string | null = null) => ({
  ...e,
  state: 'refused',
  refusal,
  refusedBecauseOf: because,
});
const SERVER_REFUSALS: Record<string, string> = {
  STATEMENT_ALREADY_IMPORTED: 'alreadyImported',
  STATEMENT_NOTHING_NEW: 'nothingNew',
  STATEMENT_UNREADABLE: 'unreadable',
  STATEMENT_PREVIEW_MISMATCH: 'previewMismatch',
  FILE_TOO_LARGE: 'tooBig',
  STATEMENT_HAS_ERRORS: 'hasErrors',
};

/** The preview's own keys, whether the server has answered yet or not. */
const previewKeys = {
  'file.chosen': choose,
  submit: (e: StatementImportExpected, ev: ModelEvent) => submit(e, ev.idempotencyKey as string),
  'mapping.edit': (e: StatementImportExpected) => (e.preview?.csv ? { ...e, state: 'mapping' } : e),
  cancel: startOver,
};

/** What the statements screen reads from the snapshot (mirrors the screen). */
function screen(snapshot: AnyMachineSnapshot) {
  const c = snapshot.context;
  return {
    busy: snapshot.hasTag('busy'),
    file: c.file,
    preview: c.preview,
    known: c.known,
    knownFailed: c.knownFailed,
    job: c.job,
    refusal: c.refusal,
    refusedBecauseOf: c.refusedBecauseOf,
    error: c.error,
  };
}

const looks =
  (busy: boolean) =>
  ({ world, snapshot }: Observed<StatementImportWorld>, e: StatementImportExpected) => {
    expect(screen(snapshot)).toEqual({
      busy,
      file: e.file,
      preview: e.preview,
      known: e.known,
      knownFailed: e.knownFailed,
      job: e.job,
      refusal: e.refusal,
      refusedBecauseOf: e.refusedBecauseOf,
      error: e.error,
    });
    expect(world.remembered).toEqual(e.remembered);
    expect(world.reports).toEqual(e.reports);
  };

export interface StatementImportWorld {
  remembered: unknown[];
  reports: unknown[];
}

export const statementImportModel: MachineModel<undefined, StatementImportWorld, StatementImportExpected> = {
  name: 'statementImport',
  machine: statementImportMachine,
  starts: [{ name: 'the statements screen', input: undefined }],
  events: {
    'choose a small file': { type: 'file.chosen', file: SMALL },
    'choose exactly 40 MB': { type: 'file.chosen', file: LIMIT },
    'choose 40 MB + 1 byte': { type: 'file.chosen', file: BIG },
    'read: camt.053': { type: 'xstate.done.actor.read', output: CAMT },
    'read: CSV, mapping guessed': { type: 'xstate.done.actor.read', output: CSV_GUESSED },
    'read: CSV, mapping known': { type: 'xstate.done.actor.read', output: CSV_KNOWN_MAPPING },
    'read: not a statement': {
      type: 'xstate.done.actor.read',
      output: { ...CAMT, format: 'csv', lineCount: 0, problem: 'wrongFormat' },
    },
    'read: no line readable': {
      type: 'xstate.done.actor.read',
      output: { ...CAMT, format: 'mt940', lineCount: 0, problem: 'unreadable' },
    },
    'read: worker fails': { type: 'xstate.error.actor.read', error: new Error('worker') },
    'accept the mapping': { type: 'mapping.accept' },
    'apply a mapping': { type: 'mapping.apply', mapping: CHOSEN },
    'edit the mapping': { type: 'mapping.edit' },
    'known: 2 new': { type: 'xstate.done.actor.known', output: NEW },
    'known: none new': { type: 'xstate.done.actor.known', output: NOTHING_NEW },
    'known: fails': { type: 'xstate.error.actor.known', error: { code: 'NETWORK_ERROR' } },
    Enter: { type: 'submit', idempotencyKey: 'key-1' },
    'Enter again': { type: 'submit', idempotencyKey: 'key-2' },
    'submit: job': { type: 'xstate.done.actor.submit', output: job('RUNNING', 0) },
    'submit: already imported': {
      type: 'xstate.error.actor.submit',
      error: {
        code: 'STATEMENT_ALREADY_IMPORTED',
        details: { statementFileId: 's0', fileName: 'outubro.xml' },
      },
    },
    'submit: preview mismatch': {
      type: 'xstate.error.actor.submit',
      error: { code: 'STATEMENT_PREVIEW_MISMATCH' },
    },
    'submit: network': { type: 'xstate.error.actor.submit', error: { code: 'NETWORK_ERROR' } },
    'poll: running': { type: 'xstate.done.actor.poll', output: job('RUNNING', 2) },
    'poll: done': { type: 'xstate.done.actor.poll', output: job('DONE', 3, SUMMARY) },
    'poll: failed': { type: 'xstate.done.actor.poll', output: job('FAILED', 1, null, 'IMPORT_INTERRUPTED') },
    'poll: network': { type: 'xstate.error.actor.poll', error: { code: 'NETWORK_ERROR' } },
    retry: { type: 'retry' },
    Esc: { type: 'cancel' },
  },
  serializeState: (s) =>
    JSON.stringify({
      value: s.value,
      csv: s.context.preview?.csv ? s.context.preview.csv.guessed : null,
      applied: s.context.mapping !== null,
      // Back at the mapping after the server answered: its answer must not outlive the mapping.
      answered: s.matches('mapping') && s.context.known !== null,
      job: s.context.job?.done ?? null,
    }),
  actors: ['read', 'known', 'submit', 'poll'],
  world: () => {
    const world: StatementImportWorld = { remembered: [], reports: [] };
    return {
      world,
      actions: {
        rememberMapping: (_: unknown, p: unknown) => world.remembered.push(p),
        reportImported: (_: unknown, p: { job: unknown }) => world.reports.push(p.job),
      },
    };
  },
  initial: () => ({ state: 'idle', requests: [], ...fresh, remembered: [], reports: [] }),
  transitions: {
    idle: { 'file.chosen': choose },
    reading: {
      'file.chosen': choose,
      'xstate.done.actor.read': (e, ev) => {
        const outcome = ev.output as Outcome & { problem: string | null };
        const next = { ...e, preview: outcome };
        if (outcome.problem) return refuse(next, outcome.problem);
        if (outcome.csv?.guessed) return { ...next, state: 'mapping' };
        return check(next);
      },
      'xstate.error.actor.read': (e) => refuse(e, 'unreadable'),
      cancel: startOver,
    },
    mapping: {
      'file.chosen': choose,
      // The guess is right: remembered for this header as it is.
      'mapping.accept': (e) => ({
        ...check(e),
        remembered: [...e.remembered, { header: HEADER, mapping: e.preview?.csv?.mapping }],
      }),
      'mapping.apply': (e, ev) => ({
        ...read({ ...e, applied: ev.mapping }),
        remembered: [...e.remembered, { header: HEADER, mapping: ev.mapping }],
      }),
      cancel: startOver,
    },
    // The rows are shown while the server says which are new.
    checking: {
      ...previewKeys,
      'xstate.done.actor.known': (e, ev) => {
        const known = ev.output as typeof NEW;
        if (known.newLines === 0) return refuse({ ...e, known }, 'alreadyImported', 'outubro.xml');
        return { ...e, state: 'preview', known };
      },
      // The server's count is missing, not the preview: it can still be sent (the server checks again).
      'xstate.error.actor.known': (e) => ({ ...e, state: 'preview', knownFailed: true }),
    },
    preview: previewKeys,
    // On its way: neither another Enter, nor Esc, nor another file changes anything.
    submitting: {
      'xstate.done.actor.submit': (e, ev) => poll(e, ev.output as ReturnType<typeof job>),
      'xstate.error.actor.submit': (e, ev) => {
        const error = ev.error as { code: string; details?: { fileName: string } };
        const refusal = SERVER_REFUSALS[error.code];
        if (refusal) return refuse(e, refusal, error.details?.fileName ?? null);
        return { ...e, state: 'failed', error: error.code };
      },
    },
    importing: {
      'xstate.done.actor.poll': (e, ev) => {
        const seen = ev.output as ReturnType<typeof job>;
        if (seen.status === 'DONE')
          return { ...e, state: 'imported', job: seen, reports: [...e.reports, seen] };
        if (seen.status === 'FAILED') return { ...e, state: 'failed', job: seen, error: seen.errorCode };
        return poll(e, seen);
      },
      'xstate.error.actor.poll': (e, ev) => ({
        ...e,
        state: 'failed',
        error: (ev.error as { code: string }).code,
      }),
    },
    // Retry: the same file, mapping and key.
    failed: {
      'file.chosen': choose,
      retry: (e) => submit(e, e.key as string),
      cancel: startOver,
    },
    imported: { 'file.chosen': choose, cancel: startOver },
    refused: { 'file.chosen': choose, cancel: startOver },
  },
  states: {
    idle: looks(false),
    reading: looks(true),
    mapping: looks(false),
    checking: looks(false),
    preview: looks(false),
    submitting: looks(true),
    importing: looks(true),
    failed: looks(false),
    imported: looks(false),
    refused: looks(false),
  },
  limit: 2000,
};

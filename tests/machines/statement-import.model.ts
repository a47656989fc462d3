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
 *
 * Issue 27: a file may hold several statements (accounts and periods); the server is asked, per
 * statement, which of its lines it holds. A file that names no account waits for the admin's account
 * (a valid IBAN; anything else changes nothing) and is then read again with it, before the server is
 * asked anything; the account travels with the upload and can be changed from the preview. A statement
 * whose balances do not add up is sent only with a note (1–500 characters, trimmed) — "import anyway" —
 * which travels with the upload; a blank or too long note sends nothing.
 */

const SMALL = { name: 'extrato.csv', size: 2_048 };
const LIMIT = { name: 'limite.xml', size: 41_943_040 };
const BIG = { name: 'grande.csv', size: 41_943_041 };
const HEADER = ['Data', 'Descrição', 'Montante'];
const GUESSED = { bookingDate: 'Data', description: 'Descrição', amount: 'Montante' };
const CHOSEN = { bookingDate: 0, description: 1, amount: 2, delimiter: ';' };
const KEYS = ['a'.repeat(64), 'b'.repeat(64), 'c'.repeat(64)];
const MAIN = 'PT50000201231234567890154';
const OTHER = 'DE89370400440532013000';
/** What the admin types for a file without an account, and the account it is (electronic format). */
const TYPED = 'de89 3704 0044 0532 0130 00';
const statement = (
  accountIban: string | null,
  firstEntry: number,
  entryCount: number,
  consistent = true,
) => ({
  accountIban,
  currency: 'EUR',
  statementId: accountIban ? `ST-${firstEntry}` : null,
  sequence: null,
  periodStart: '2026-05-01',
  periodEnd: '2026-05-31',
  balance: { opening: 10_000, closing: consistent ? 5_390 : 5_000, consistent },
  totalCents: -4_610,
  firstEntry,
  entryCount,
});
const base = { lineCount: 3, totalCents: -4_610, problem: null, keys: KEYS };
/** Two accounts in one camt.053: two lines of one, one of the other. */
const CAMT = {
  ...base,
  format: 'camt053',
  csv: null,
  statements: [statement(MAIN, 0, 2), statement(OTHER, 2, 1)],
};
const CAMT_MISMATCH = { ...CAMT, statements: [statement(MAIN, 0, 3, false)] };
/** A bank CSV without its account line, its mapping guessed. */
const CSV_GUESSED = {
  ...base,
  format: 'csv',
  csv: { header: HEADER, mapping: GUESSED, guessed: true },
  statements: [statement(null, 0, 3)],
};
/** A CSV whose mapping is remembered, naming no account either. */
const CSV_KNOWN_MAPPING = {
  ...base,
  format: 'csv',
  csv: { header: HEADER, mapping: CHOSEN, guessed: false },
  statements: [statement(null, 0, 3)],
};
/** What the server is asked: each statement with its own keys and account (given, or the admin's). */
const question = (accountIban: string, statementId: string | null, keys: string[], closing = 5_390) => ({
  accountIban,
  periodStart: '2026-05-01',
  periodEnd: '2026-05-31',
  statementId,
  sequence: null,
  openingBalanceCents: 10_000,
  closingBalanceCents: closing,
  keys,
});
const QUESTIONS = new Map<unknown, (account: string | null) => unknown[]>([
  [CAMT, () => [question(MAIN, 'ST-0', KEYS.slice(0, 2)), question(OTHER, 'ST-2', KEYS.slice(2))]],
  [CAMT_MISMATCH, () => [question(MAIN, 'ST-0', KEYS, 5_000)]],
  [CSV_GUESSED, (account) => [question(account as string, null, KEYS)]],
  [CSV_KNOWN_MAPPING, (account) => [question(account as string, null, KEYS)]],
]);
const NOTE = 'O banco corrigiu o saldo final\r\nno extrato seguinte';
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
  statements: 2,
  skipped: 0,
};

type File = { name: string; size: number };
type Outcome = typeof CAMT | typeof CSV_GUESSED | typeof CSV_KNOWN_MAPPING;
const mismatched = (preview: Outcome | null) =>
  preview?.statements.some((s) => s.balance && !s.balance.consistent) === true;
const namesNoAccount = (preview: Outcome | null) =>
  preview?.statements.some((s) => s.accountIban === null) === true;

export interface StatementImportExpected extends Expected {
  file: File | null;
  /** The mapping the admin applied (sent with every later read). */
  applied: unknown;
  /** The account the admin gave (sent with every later read, question and upload). */
  account: string | null;
  /** The "import anyway" note sent with the upload. */
  note: string | null;
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
  account: null,
  note: null,
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
  requests: [
    ...e.requests,
    { actor: 'read', input: { file: e.file, mapping: e.applied, accountIban: e.account } },
  ],
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
  requests: [...e.requests, { actor: 'known', input: { statements: QUESTIONS.get(e.preview)?.(e.account) } }],
});
/** A file that names no account asks for one first (unless given); the server is asked nothing yet. */
const decide = (e: StatementImportExpected): StatementImportExpected =>
  namesNoAccount(e.preview) && e.account === null ? { ...e, state: 'account' } : check(e);
const send = (e: StatementImportExpected, key: string, note: string | null): StatementImportExpected => ({
  ...e,
  state: 'submitting',
  key,
  note,
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
        accountIban: e.account,
        mismatchNote: note,
      },
    },
  ],
});
const submit = (e: StatementImportExpected, ev: ModelEvent): StatementImportExpected => {
  if (!mismatched(e.preview)) return send(e, ev.idempotencyKey as string, null);
  // Line breaks and runs of spaces become one space (the server takes no control characters).
  const note = typeof ev.mismatchNote === 'string' ? ev.mismatchNote.replace(/\s+/g, ' ').trim() : '';
  // Balances that do not add up: only "import anyway" with a note of 1–500 characters sends it.
  if (note.length === 0 || note.length > 500) return e;
  return send(e, ev.idempotencyKey as string, note);
};
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
  STATEMENT_BALANCE_MISMATCH: 'balanceMismatch',
  STATEMENT_CURRENCY_UNSUPPORTED: 'currencyUnsupported',
};

/** The preview's own keys, whether the server has answered yet or not. */
const previewKeys = {
  'file.chosen': choose,
  submit,
  'mapping.edit': (e: StatementImportExpected) => (e.preview?.csv ? { ...e, state: 'mapping' } : e),
  // Only an account the admin gave can be changed (a file's own is the file's).
  'account.change': (e: StatementImportExpected) => (e.account ? { ...e, state: 'account' } : e),
  cancel: startOver,
};

/** What the statements screen reads from the snapshot (mirrors the screen). */
function screen(snapshot: AnyMachineSnapshot) {
  const c = snapshot.context;
  return {
    busy: snapshot.hasTag('busy'),
    file: c.file,
    account: c.accountIban,
    note: c.mismatchNote,
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
      account: e.account,
      note: e.note,
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
    'read: camt.053, balances do not add up': { type: 'xstate.done.actor.read', output: CAMT_MISMATCH },
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
    'type an IBAN': { type: 'account.choose', accountIban: TYPED },
    'type a wrong IBAN': { type: 'account.choose', accountIban: 'PT50000201231234567890155' },
    'change the account': { type: 'account.change' },
    'known: 2 new': { type: 'xstate.done.actor.known', output: NEW },
    'known: none new': { type: 'xstate.done.actor.known', output: NOTHING_NEW },
    'known: fails': { type: 'xstate.error.actor.known', error: { code: 'NETWORK_ERROR' } },
    Enter: { type: 'submit', idempotencyKey: 'key-1' },
    'Enter again': { type: 'submit', idempotencyKey: 'key-2' },
    'import anyway, with a note': { type: 'submit', idempotencyKey: 'key-3', mismatchNote: `  ${NOTE}\n` },
    'import anyway, a blank note': { type: 'submit', idempotencyKey: 'key-4', mismatchNote: ' \n ' },
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
    'submit: balances do not add up': {
      type: 'xstate.error.actor.submit',
      error: { code: 'STATEMENT_BALANCE_MISMATCH' },
    },
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
      account: s.context.accountIban !== null,
      mismatch: s.context.preview?.statements?.some(
        (st: { balance: { consistent: boolean } | null }) => st.balance && !st.balance.consistent,
      ),
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
        return decide(next);
      },
      'xstate.error.actor.read': (e) => refuse(e, 'unreadable'),
      cancel: startOver,
    },
    mapping: {
      'file.chosen': choose,
      // The guess is right: remembered for this header as it is.
      'mapping.accept': (e) => ({
        ...decide(e),
        remembered: [...e.remembered, { header: HEADER, mapping: e.preview?.csv?.mapping }],
      }),
      'mapping.apply': (e, ev) => ({
        ...read({ ...e, applied: ev.mapping }),
        remembered: [...e.remembered, { header: HEADER, mapping: ev.mapping }],
      }),
      cancel: startOver,
    },
    // The file names no account: a valid IBAN reads it again with that account; nothing else is sent.
    account: {
      'file.chosen': choose,
      'account.choose': (e, ev) => {
        const typed = (ev.accountIban as string).replace(/\s+/g, '').toUpperCase();
        if (typed === 'PT50000201231234567890155') return e;
        return read({ ...e, account: typed });
      },
      'mapping.edit': (e) => (e.preview?.csv ? { ...e, state: 'mapping' } : e),
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
      retry: (e) => send(e, e.key as string, e.note),
      cancel: startOver,
    },
    imported: { 'file.chosen': choose, cancel: startOver },
    refused: { 'file.chosen': choose, cancel: startOver },
  },
  states: {
    idle: looks(false),
    reading: looks(true),
    mapping: looks(false),
    account: looks(false),
    checking: looks(false),
    preview: looks(false),
    submitting: looks(true),
    importing: looks(true),
    failed: looks(false),
    imported: looks(false),
    refused: looks(false),
  },
  limit: 5000,
};

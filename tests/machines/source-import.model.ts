import { expect } from 'vitest';
import type { AnyMachineSnapshot } from 'xstate';
import { sourceImportMachine } from '../../machines/source-import';
import type { Expected, MachineModel, ModelEvent, Observed } from './model';

/**
 * Importing payouts or invoices as issue 31 describes it ("both imports work like statements"), written
 * without reading the machine: the admin picks the kind or lets the bytes decide, and the kind stays
 * picked from one file to the next; a file over the specification's 40 MB is refused before it is read;
 * otherwise it is read in a worker as the kind picked (null: the bytes decide). The reader's refusal (a
 * payout whose rows do not add up, a file that is not the kind picked, …) is shown with its facts and
 * nothing is sent; a collector's report with no columns remembered for its header waits for the admin's
 * columns (remembered for that header) and is read again with them; otherwise the server is asked which
 * of its rows it holds — all of them: refused, nothing new. Enter sends the file, its kind, the
 * collector's columns, the preview's row count and total once (a second Enter sends nothing); the job is
 * polled until done (reported) or failed (retry sends the same key); a refusal by the server says why with
 * its facts. Picking another kind with a file on screen reads that file again as the new kind (except
 * while it is on its way); Esc forgets the file and keeps the kind.
 */

const SMALL = { name: 'payouts.csv', size: 2_048 };
const BIG = { name: 'grande.xml', size: 41_943_041 };
const HEADER = ['Transferencia', 'Data', 'Liquido'];
const COLUMNS = { payoutId: 0, date: 1, net: 2, headerLine: 1, delimiter: ';' };
const IDS = ['po_1/txn_1', 'po_1/txn_2', 'po_1/txn_3'];
const base = { refusal: null, rows: 3, totalCents: 9_870, ids: IDS };
const STRIPE = { ...base, kind: 'STRIPE_PAYOUTS', csv: null };
const SAFT = { ...base, kind: 'SAFT_INVOICES', csv: null, ids: ['FT A/1|X-1', 'FT A/2|X-2', 'NC A/1|X-3'] };
const COLLECTOR_UNMAPPED = {
  ...base,
  kind: 'COLLECTOR_PAYOUTS',
  rows: 0,
  totalCents: 0,
  ids: [],
  csv: { header: HEADER, mapping: { headerLine: 1 }, chosen: false },
};
const COLLECTOR_MAPPED = {
  ...base,
  kind: 'COLLECTOR_PAYOUTS',
  csv: { header: HEADER, mapping: COLUMNS, chosen: true },
};
const SUM_REFUSED = {
  ...STRIPE,
  rows: 0,
  totalCents: 0,
  ids: [],
  refusal: {
    code: 'STRIPE_PAYOUT_SUM_MISMATCH',
    line: 4,
    facts: { payoutId: 'po_1', payoutCents: 10_000, rowsNetCents: 9_870 },
  },
};
const NEW = { newRows: 2, knownRows: 1, files: [{ sourceFileId: 'f0', fileName: 'abril.csv', rows: 1 }] };
/** The boundary: one row of the file is new, so there is something to import. */
const ONE_NEW = { newRows: 1, knownRows: 2, files: [{ sourceFileId: 'f0', fileName: 'abril.csv', rows: 2 }] };
const NOTHING_NEW = {
  newRows: 0,
  knownRows: 3,
  files: [{ sourceFileId: 'f0', fileName: 'abril.csv', rows: 3 }],
};
const job = (status: string, done: number, result: unknown = null, errorCode: string | null = null) => ({
  id: 'job-1',
  fileName: 'payouts.csv',
  status,
  phase: status === 'RUNNING' ? 'importing' : 'done',
  done,
  total: 3,
  result,
  errorCode,
});
const RESULT = {
  sourceFileId: 'f1',
  newRows: 2,
  duplicatesSkipped: 1,
  payouts: 1,
  documents: null,
  creditNotes: null,
  cancelled: null,
  linked: 2,
  unlinked: 0,
};

type File = { name: string; size: number };
type Outcome = typeof STRIPE | typeof COLLECTOR_UNMAPPED | typeof COLLECTOR_MAPPED | typeof SUM_REFUSED;
type Refusal = { code: string; line?: number; facts: Record<string, unknown> };

export interface SourceImportExpected extends Expected {
  file: File | null;
  kind: string | null;
  /** The collector columns the admin applied (sent with every later read). */
  applied: unknown;
  preview: Outcome | null;
  known: unknown;
  knownFailed: boolean;
  key: string | null;
  job: ReturnType<typeof job> | null;
  refusal: Refusal | null;
  error: string | null;
  remembered: unknown[];
  reports: unknown[];
}

/** What a new file (or the same file read as another kind) starts from: the kind stays. */
const fresh = {
  file: null,
  applied: null,
  preview: null,
  known: null,
  knownFailed: false,
  key: null,
  job: null,
  refusal: null,
  error: null,
} as const;

const read = (e: SourceImportExpected): SourceImportExpected => ({
  ...e,
  state: 'reading',
  requests: [...e.requests, { actor: 'read', input: { file: e.file, kind: e.kind, mapping: e.applied } }],
});
/** A file chosen (or read again): refused on its size alone, nothing read; else read as the kind picked. */
const start = (e: SourceImportExpected, file: File): SourceImportExpected => {
  if (file.size > 40 * 1024 * 1024)
    return { ...e, ...fresh, file, state: 'refused', refusal: { code: 'FILE_TOO_LARGE', facts: {} } };
  return read({ ...e, ...fresh, file });
};
const choose = (e: SourceImportExpected, ev: ModelEvent) => start(e, ev.file as File);
const readAs = (e: SourceImportExpected, ev: ModelEvent) =>
  start({ ...e, kind: ev.kind as string | null }, e.file as File);
const check = (e: SourceImportExpected): SourceImportExpected => ({
  ...e,
  state: 'checking',
  known: null,
  knownFailed: false,
  requests: [...e.requests, { actor: 'known', input: { kind: e.preview?.kind, ids: e.preview?.ids } }],
});
const send = (e: SourceImportExpected, key: string): SourceImportExpected => ({
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
        kind: e.preview?.kind,
        mapping: e.preview?.csv ? e.preview.csv.mapping : null,
        expectedRows: e.preview?.rows,
        expectedTotalCents: e.preview?.totalCents,
        idempotencyKey: key,
      },
    },
  ],
});
const poll = (e: SourceImportExpected, seen: ReturnType<typeof job>): SourceImportExpected => ({
  ...e,
  state: 'importing',
  job: seen,
  requests: [...e.requests, { actor: 'poll', input: { jobId: 'job-1' } }],
});
const startOver = (e: SourceImportExpected): SourceImportExpected => ({ ...e, ...fresh, state: 'idle' });
const editColumns = (e: SourceImportExpected) => (e.preview?.csv ? { ...e, state: 'mapping' } : e);

/** The server's refusals no retry changes (4xx), and what the screen shows of them. */
const SERVER_REFUSED = new Set([
  'SOURCE_ALREADY_IMPORTED',
  'STRIPE_PAYOUT_SUM_MISMATCH',
  'PAYLOAD_TOO_LARGE',
]);

const previewKeys = {
  'file.chosen': choose,
  'kind.choose': readAs,
  submit: (e: SourceImportExpected, ev: ModelEvent) => send(e, ev.idempotencyKey as string),
  'mapping.edit': editColumns,
  cancel: startOver,
};

/** What the screen reads from the snapshot (mirrors the panel). */
function screen(snapshot: AnyMachineSnapshot) {
  const c = snapshot.context;
  return {
    busy: snapshot.hasTag('busy'),
    sending: snapshot.hasTag('sending'),
    file: c.file,
    kind: c.kind,
    preview: c.preview,
    known: c.known,
    knownFailed: c.knownFailed,
    job: c.job,
    refusal: c.refusal,
    error: c.error,
  };
}

const looks =
  (busy: boolean, sending = false) =>
  ({ world, snapshot }: Observed<SourceImportWorld>, e: SourceImportExpected) => {
    expect(screen(snapshot)).toEqual({
      busy,
      sending,
      file: e.file,
      kind: e.kind,
      preview: e.preview,
      known: e.known,
      knownFailed: e.knownFailed,
      job: e.job,
      refusal: e.refusal,
      error: e.error,
    });
    expect(world.remembered).toEqual(e.remembered);
    expect(world.reports).toEqual(e.reports);
  };

export interface SourceImportWorld {
  remembered: unknown[];
  reports: unknown[];
}

export const sourceImportModel: MachineModel<undefined, SourceImportWorld, SourceImportExpected> = {
  name: 'sourceImport',
  machine: sourceImportMachine,
  starts: [{ name: 'the payouts and invoices screen', input: undefined }],
  events: {
    'pick Stripe': { type: 'kind.choose', kind: 'STRIPE_PAYOUTS' },
    'let the bytes decide': { type: 'kind.choose', kind: null },
    'choose a small file': { type: 'file.chosen', file: SMALL },
    'choose 40 MB + 1 byte': { type: 'file.chosen', file: BIG },
    'read: Stripe report': { type: 'xstate.done.actor.read', output: STRIPE },
    'read: SAF-T file': { type: 'xstate.done.actor.read', output: SAFT },
    'read: collector, no columns': { type: 'xstate.done.actor.read', output: COLLECTOR_UNMAPPED },
    'read: collector, columns remembered': { type: 'xstate.done.actor.read', output: COLLECTOR_MAPPED },
    'read: payout does not add up': { type: 'xstate.done.actor.read', output: SUM_REFUSED },
    'read: worker fails': { type: 'xstate.error.actor.read', error: new Error('worker') },
    'apply columns': { type: 'mapping.apply', mapping: COLUMNS },
    'edit columns': { type: 'mapping.edit' },
    'known: 2 new': { type: 'xstate.done.actor.known', output: NEW },
    'known: 1 new': { type: 'xstate.done.actor.known', output: ONE_NEW },
    'known: none new': { type: 'xstate.done.actor.known', output: NOTHING_NEW },
    'known: fails': { type: 'xstate.error.actor.known', error: { code: 'NETWORK_ERROR' } },
    Enter: { type: 'submit', idempotencyKey: 'key-1' },
    'Enter again': { type: 'submit', idempotencyKey: 'key-2' },
    'submit: job': { type: 'xstate.done.actor.submit', output: job('RUNNING', 0) },
    'submit: already imported': {
      type: 'xstate.error.actor.submit',
      error: { code: 'SOURCE_ALREADY_IMPORTED', details: {} },
    },
    'submit: payout does not add up': {
      type: 'xstate.error.actor.submit',
      error: {
        code: 'STRIPE_PAYOUT_SUM_MISMATCH',
        details: { line: 7, payoutId: 'po_2', payoutCents: 500, rowsNetCents: 400 },
      },
    },
    'submit: network': { type: 'xstate.error.actor.submit', error: { code: 'NETWORK_ERROR' } },
    'poll: running': { type: 'xstate.done.actor.poll', output: job('RUNNING', 2) },
    'poll: done': { type: 'xstate.done.actor.poll', output: job('DONE', 3, RESULT) },
    'poll: failed': {
      type: 'xstate.done.actor.poll',
      output: job('FAILED', 1, null, 'STATEMENT_IMPORT_INTERRUPTED'),
    },
    'poll: network': { type: 'xstate.error.actor.poll', error: { code: 'NETWORK_ERROR' } },
    retry: { type: 'retry' },
    Esc: { type: 'cancel' },
  },
  serializeState: (s) =>
    JSON.stringify({
      value: s.value,
      kind: s.context.kind,
      preview: s.context.preview?.kind ?? null,
      csv: s.context.preview?.csv ? s.context.preview.csv.chosen : null,
      applied: s.context.mapping !== null,
      job: s.context.job?.done ?? null,
    }),
  actors: ['read', 'known', 'submit', 'poll'],
  world: () => {
    const world: SourceImportWorld = { remembered: [], reports: [] };
    return {
      world,
      actions: {
        rememberMapping: (_: unknown, p: unknown) => world.remembered.push(p),
        reportImported: (_: unknown, p: { job: unknown }) => world.reports.push(p.job),
      },
    };
  },
  initial: () => ({ state: 'idle', requests: [], ...fresh, kind: null, remembered: [], reports: [] }),
  transitions: {
    idle: {
      'file.chosen': choose,
      // No file yet: the kind is only remembered for the next one.
      'kind.choose': (e, ev) => ({ ...e, kind: ev.kind as string | null }),
    },
    reading: {
      'file.chosen': choose,
      'kind.choose': readAs,
      'xstate.done.actor.read': (e, ev) => {
        const preview = ev.output as Outcome;
        const next = { ...e, preview };
        if (preview.refusal) return { ...next, state: 'refused', refusal: preview.refusal };
        if (preview.csv && !preview.csv.chosen) return { ...next, state: 'mapping' };
        return check(next);
      },
      'xstate.error.actor.read': (e) => ({
        ...e,
        state: 'refused',
        refusal: { code: 'PREVIEW_FAILED', facts: {} },
      }),
      cancel: startOver,
    },
    // The collector's columns: applied (remembered for its header), the file is read again with them.
    mapping: {
      'file.chosen': choose,
      'kind.choose': readAs,
      'mapping.apply': (e, ev) => ({
        ...read({ ...e, applied: ev.mapping }),
        remembered: [...e.remembered, { header: HEADER, mapping: ev.mapping }],
      }),
      cancel: startOver,
    },
    checking: {
      ...previewKeys,
      'xstate.done.actor.known': (e, ev) => {
        const known = ev.output as typeof NEW;
        if (known.newRows === 0)
          return { ...e, state: 'refused', known, refusal: { code: 'SOURCE_NOTHING_NEW', facts: {} } };
        return { ...e, state: 'preview', known };
      },
      'xstate.error.actor.known': (e) => ({ ...e, state: 'preview', knownFailed: true }),
    },
    preview: previewKeys,
    // On its way: neither another Enter, nor Esc, nor another file or kind changes anything.
    submitting: {
      'xstate.done.actor.submit': (e, ev) => poll(e, ev.output as ReturnType<typeof job>),
      'xstate.error.actor.submit': (e, ev) => {
        const error = ev.error as { code: string; details?: Record<string, unknown> };
        if (!SERVER_REFUSED.has(error.code)) return { ...e, state: 'failed', error: error.code };
        const { line, ...facts } = error.details ?? {};
        return {
          ...e,
          state: 'refused',
          refusal: { code: error.code, ...(line === undefined ? {} : { line: line as number }), facts },
        };
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
    // Retry: the same file, kind, columns and key.
    failed: {
      'file.chosen': choose,
      'kind.choose': readAs,
      retry: (e) => send(e, e.key as string),
      cancel: startOver,
    },
    imported: {
      'file.chosen': choose,
      // The file is imported: another kind is for the next file.
      'kind.choose': (e, ev) => ({ ...e, ...fresh, state: 'idle', kind: ev.kind as string | null }),
      cancel: startOver,
    },
    refused: {
      'file.chosen': choose,
      'kind.choose': readAs,
      'mapping.edit': editColumns,
      cancel: startOver,
    },
  },
  states: {
    idle: looks(false),
    reading: looks(true),
    mapping: looks(false),
    checking: looks(false),
    preview: looks(false),
    submitting: looks(true, true),
    importing: looks(true, true),
    failed: looks(false),
    imported: looks(false),
    refused: looks(false),
  },
  limit: 5000,
};

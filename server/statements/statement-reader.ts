import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import type { CsvMapping, ParseResult, StatementEntry } from '../../domain/statements/types';
import { refuse } from '../platform/refusal';
import { startThread } from '../platform/threads';
import { type PlannedLines, planUpload, type StatementPlanning } from './import-plan';
import type { StatementKeys } from './known-lines';
import { type ChunkPlan, type LineRows, lineRowsOf } from './line-rows';
import type { PackedKeys } from './packed-keys';
import { readStatementUpload, type UploadBytes, type UploadRefusal } from './upload-guards';

/**
 * Where an uploaded statement is read (issue 27 item 11, decision 0122): one at a time per instance,
 * and off the event loop once it is big enough to be felt. Parsing and hashing 600,000 lines is seconds
 * of CPU and hundreds of MB; on the API thread it stalled `/v2/health` for seconds, and every
 * simultaneous upload held its own copy. An upload waits for this instance's slot, is read inside it,
 * and keeps the slot until its import has finished, so one parsed statement is in memory at a time.
 */

/** Below this a file is read on the API thread: a few milliseconds, less than starting a worker. */
export const READ_OFF_THREAD_FROM_BYTES = 512 * 1024;
/**
 * The reading thread's heap. Old generation: a worker that needs more is ended (ERR_WORKER_OUT_OF_MEMORY),
 * not the process. Young generation: what `npm start`'s flag gave it before threads named their own
 * (4 MiB semi-spaces, decision 0085; unchanged by decision 0168, not measured larger for statements).
 */
const READER_HEAP = { oldMb: 1_536, youngMb: 12 };

/** Entries per chunk the import is handed: one INSERT's worth (decision 0144). */
export const ENTRIES_PER_CHUNK = 5_000;

/** The parse without its entries, which stay where they were read: their count and sum are what the checks read. */
export type ParsedStatement = Omit<ParseResult, 'entries'> & { entryCount: number; entriesSumCents: number };

/** The statements planned, without their keys (which stay where they were read), or why they cannot be. */
export type PlannedReading = { refused: UploadRefusal } | { statements: PlannedLines[] };

/** What the worker sends (parse-worker.ts): its reading, then an answer to each of the API thread's requests. */
export type ReaderMessage =
  | { type: 'refused'; refusal: UploadRefusal }
  | { type: 'read'; parsed: ParsedStatement; planning: PlannedReading }
  | { type: 'keys'; digests: Uint8Array }
  | { type: 'rows'; rows: LineRows | null };

/** What the API thread asks the worker, one request at a time. */
export type ReaderRequest =
  | { type: 'keys'; statement: number; start: number; end: number }
  | { type: 'rows'; plan: ChunkPlan };

/**
 * A read statement's entries and keys, held where they were read — a big file's in its reader's worker
 * thread, never on the API thread (decision 0144): the keys are read a piece at a time (the known lines
 * are recognised from them, before the 202 and again under the import lock), and the entries become the
 * rows of the import's INSERTs a chunk of ENTRIES_PER_CHUNK at a time, statement after statement as
 * `ParseResult.entries` holds them, as the import's plan of each chunk says.
 */
export interface HeldLines {
  keysOf(statement: number): StatementKeys;
  /** The rows of the next chunk (null after the last). */
  next(plan: ChunkPlan): Promise<LineRows | null>;
  /** Lets the entries go (ends the thread that holds them); idempotent. */
  close(): void;
}

/** The statement read as the preview read it, planned with the account chosen for it (import-plan.ts). */
export interface ReadStatementUpload {
  parsed: ParsedStatement;
  planning: PlannedReading;
  held: HeldLines;
}

type UploadReading = { refused: UploadRefusal } | { parsed: ParseResult; planning: StatementPlanning };

/**
 * The statement read as the preview read it (readStatementUpload) and planned (`planUpload`: its line
 * keys), or its reading's refusal thrown as a Refusal. A planning refusal is answered as data: the import
 * throws it after its own checks of the parse. The caller closes `held` when done with them.
 */
export async function readUpload(
  bytes: Uint8Array,
  mapping: CsvMapping | undefined,
  chosenAccount: string | null,
): Promise<ReadStatementUpload> {
  return bytes.byteLength >= READ_OFF_THREAD_FROM_BYTES
    ? readInWorker(bytes, mapping, chosenAccount)
    : readHere(bytes, mapping, chosenAccount);
}

/** readUpload on this thread, whatever the size: what a small file gets. */
export function readHere(
  bytes: Uint8Array,
  mapping: CsvMapping | undefined,
  chosenAccount: string | null,
): ReadStatementUpload {
  const reading = readAndPlan(bytes, mapping, chosenAccount);
  if ('refused' in reading) throw refusalOf(reading.refused);
  const { parsed, planning, held } = holding(reading);
  return {
    parsed,
    planning,
    held: {
      keysOf: (statement) => ({
        count: held?.entryCount(statement) ?? 0,
        piece: async (start, end) => held?.keys(statement, start, end) ?? new Uint8Array(0),
      }),
      next: async (plan) => held?.rows(plan) ?? null,
      close: () => undefined,
    },
  };
}

/** A reading split into what is sent to the import and what stays where it was read (null: a refused plan). */
export function holding(reading: { parsed: ParseResult; planning: StatementPlanning }) {
  const { entries, ...rest } = reading.parsed;
  const parsed: ParsedStatement = {
    ...rest,
    entryCount: entries.length,
    entriesSumCents: entries.reduce((total, entry) => total + entry.amountCents, 0),
  };
  const { planning } = reading;
  if ('refused' in planning) return { parsed, planning, held: null };
  const statements = planning.statements.map(({ keys: _held, ...plan }) => plan);
  const keys = planning.statements.map((statement) => statement.keys);
  return { parsed, planning: { statements }, held: new LinesAtHand(entries, keys, statements) };
}

/** The entries and keys of a read statement where they are held, each chunk's let go once its rows are built. */
export class LinesAtHand {
  private nextEntry = 0;
  private readonly statementOf: (fileIndex: number) => number;

  constructor(
    private readonly entries: (StatementEntry | undefined)[],
    private readonly keysByStatement: readonly PackedKeys[],
    private readonly statements: readonly PlannedLines[],
  ) {
    this.statementOf = (fileIndex) => {
      const statement = statements.find(
        (s) => fileIndex >= s.firstEntry && fileIndex < s.firstEntry + s.entryCount,
      );
      if (!statement) throw new RangeError(`entry ${fileIndex} belongs to no statement`);
      return statement.number;
    };
  }

  entryCount(statement: number): number {
    return this.statements[statement]?.entryCount ?? 0;
  }

  /** A piece of a statement's keys as their digests (known-lines.ts `StatementKeys`). */
  keys(statement: number, start: number, end: number): Uint8Array {
    return this.keysByStatement[statement]?.digestSlice(start, end) ?? new Uint8Array(0);
  }

  rows(plan: ChunkPlan): LineRows | null {
    const start = this.nextEntry;
    if (start >= this.entries.length) return null;
    const end = Math.min(this.entries.length, start + ENTRIES_PER_CHUNK);
    const keyAt = (index: number) => {
      const statement = this.statements[this.statementOf(start + index)]!;
      return this.keysByStatement[statement.number]!.at(start + index - statement.firstEntry);
    };
    const rows = lineRowsOf(
      this.entries.slice(start, end) as StatementEntry[],
      keyAt,
      this.statementOf,
      start,
      plan,
    );
    this.entries.fill(undefined, start, end);
    this.nextEntry = end;
    return rows;
  }
}

const refusalOf = (refusal: UploadRefusal) => refuse(refusal.code, { extra: refusal.extra });

/** The worker's work done on this thread: what a small file gets, and what the worker must answer alike. */
export function readAndPlan(
  upload: UploadBytes,
  mapping: CsvMapping | undefined,
  chosenAccount: string | null,
): UploadReading {
  const reading = readStatementUpload(upload, mapping);
  return 'refused' in reading ? reading : { ...reading, planning: planUpload(reading.parsed, chosenAccount) };
}

/**
 * The worker runs the TypeScript sources through tsx's loader, registered in the thread itself: loader
 * hooks of the process (`node --import tsx`, or vitest's) do not reach a worker thread on Node 20.
 */
const require = createRequire(import.meta.url);
export const workerBoot = (
  module: URL,
) => `import(${JSON.stringify(pathToFileURL(require.resolve('tsx/esm/api')).href)}).then(({ tsImport }) =>
  tsImport(${JSON.stringify(module.href)}, ${JSON.stringify(import.meta.url)}))`;
const WORKER_BOOT = workerBoot(new URL('./parse-worker.ts', import.meta.url));

/**
 * readAndPlan in a worker thread started for this one file. The worker answers the parse's summary and
 * the plan, then keeps the entries and keys and answers the import's requests — a piece of keys, the next
 * chunk's rows — one at a time, until `close()` ends it (decision 0144): the parse is held once, in the
 * worker, and never copied to this thread.
 */
export function readInWorker(
  bytes: Uint8Array,
  mapping: CsvMapping | undefined,
  chosenAccount: string | null,
): Promise<ReadStatementUpload> {
  // A copy handed over (transferred, not cloned again): the import still needs the original bytes. Not
  // `bytes.slice()`: on the Buffer a request body is, that is a view of the same memory, and handing
  // it over emptied the upload — its hash became the empty file's and its stored copy empty (0139).
  // Made here, not in the promise's executor: `bytes` named in a closure would be held by every
  // handler below until the worker ends, after the import has stored and let go of the upload (0150).
  const copy = new Uint8Array(bytes);
  return new Promise((resolve, reject) => {
    const worker = startThread(WORKER_BOOT, READER_HEAP, {
      workerData: { bytes: copy.buffer, mapping, chosenAccount },
      transferList: [copy.buffer],
    });
    let answered = false;
    let closed = false;
    // The request waiting for the worker's answer, and how the worker's end fails it.
    let waiting: { resolve(answer: Uint8Array | LineRows | null): void; reject(error: Error): void } | null =
      null;
    const close = () => {
      closed = true;
      void worker.terminate();
    };
    const ask = <T extends Uint8Array | LineRows | null>(request: ReaderRequest): Promise<T> => {
      if (closed) return Promise.reject(new Error('the statement reader thread has ended'));
      if (waiting) return Promise.reject(new Error('the statement reader answers one request at a time'));
      return new Promise<T>((resolveAnswer, rejectAnswer) => {
        waiting = {
          resolve: resolveAnswer as (answer: Uint8Array | LineRows | null) => void,
          reject: rejectAnswer,
        };
        worker.postMessage(request);
      });
    };
    const answer = (value: Uint8Array | LineRows | null) => {
      const asked = waiting;
      waiting = null;
      asked?.resolve(value);
    };
    worker.on('message', (message: ReaderMessage) => {
      if (message.type === 'refused') {
        answered = true;
        reject(refusalOf(message.refusal));
        close();
      } else if (message.type === 'read') {
        answered = true;
        const { parsed, planning } = message;
        if ('refused' in planning) close();
        const statements = 'refused' in planning ? [] : planning.statements;
        let handedOut = 0;
        resolve({
          parsed,
          planning,
          held: {
            keysOf: (statement) => ({
              count: statements[statement]?.entryCount ?? 0,
              piece: (start, end) => ask<Uint8Array>({ type: 'keys', statement, start, end }),
            }),
            next: async (plan) => {
              if (closed || handedOut >= parsed.entryCount) return null;
              handedOut += plan.counters.length;
              const rows = await ask<LineRows | null>({ type: 'rows', plan });
              if (handedOut >= parsed.entryCount) close();
              return rows;
            },
            close,
          },
        });
      } else if (message.type === 'keys') answer(message.digests);
      else answer(message.rows);
    });
    worker.on('error', (error) => {
      if (!answered) reject(error);
      waiting?.reject(error);
      waiting = null;
    });
    worker.on('exit', (code) => {
      const ended = new Error(`statement reader thread exited with code ${code}`);
      if (!answered) reject(ended);
      waiting?.reject(ended);
      waiting = null;
    });
  });
}

/**
 * This instance's one place for a statement in memory: `take()` resolves when the slot is free and
 * answers its release (idempotent). Waiters are served in arrival order.
 */
export class StatementSlot {
  private tail: Promise<void> = Promise.resolve();

  async take(): Promise<() => void> {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const before = this.tail;
    this.tail = before.then(() => released);
    await before;
    return release;
  }
}

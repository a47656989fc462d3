import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { CsvMapping, ParseResult, StatementEntry } from '../../domain/statements/types';
import { refuse } from '../platform/refusal';
import { type PlannedStatement, planUpload, type StatementPlanning } from './import-plan';
import { type ChunkPlan, type LineRows, lineRowsOf } from './line-rows';
import { readStatementUpload, type UploadRefusal } from './upload-guards';

/**
 * Where an uploaded statement is read (issue 27 item 11, decision 0122): one at a time per instance,
 * and off the event loop once it is big enough to be felt. Parsing and hashing 600,000 lines is seconds
 * of CPU and hundreds of MB; on the API thread it stalled `/v2/health` for seconds, and every
 * simultaneous upload held its own copy. An upload waits for this instance's slot, is read inside it,
 * and keeps the slot until its import has finished, so one parsed statement is in memory at a time.
 */

/** Below this a file is read on the API thread: a few milliseconds, less than starting a worker. */
export const READ_OFF_THREAD_FROM_BYTES = 512 * 1024;
/** A worker that needs more than this is ended (ERR_WORKER_OUT_OF_MEMORY), not the process. */
const WORKER_HEAP_MB = 1_536;

/** The API thread's answer to each chunk of keys (parse-worker.ts); each chunk of rows it asks with the chunk's plan. */
export const READER_CHUNK_TAKEN = 'taken';

/** Entries per chunk the import is handed: one INSERT's worth (decision 0144). */
export const ENTRIES_PER_CHUNK = 5_000;

/** A planned statement as the worker sends it: its keys travel in chunks of their own. */
type PlanOfLines = Omit<PlannedStatement, 'keys'>;

/** The parse without its entries, which are streamed: their count and sum are what the checks read. */
export type ParsedStatement = Omit<ParseResult, 'entries'> & { entryCount: number; entriesSumCents: number };

/** What the worker sends back (parse-worker.ts). */
export type ReaderMessage =
  | { type: 'refused'; refusal: UploadRefusal }
  | { type: 'keys'; statement: number; keys: string[] }
  | {
      type: 'read';
      parsed: ParsedStatement;
      planning: { refused: UploadRefusal } | { statements: PlanOfLines[] };
    }
  | { type: 'rows'; rows: LineRows };

/**
 * The file's new lines, built a chunk of ENTRIES_PER_CHUNK entries at a time (statement after statement,
 * as `ParseResult.entries` holds them) where the entries are held, as the plan of each chunk says: the
 * import inserts each chunk's rows before it asks for the next, and the entries of the whole file are
 * never on the API thread (decision 0144).
 */
export interface LineChunks {
  /** The rows of the next chunk (null after the last). */
  next(plan: ChunkPlan): Promise<LineRows | null>;
  /** Lets the entries go (ends the thread that holds them); idempotent. */
  close(): void;
}

/** The statement read as the preview read it, planned with the account chosen for it (import-plan.ts). */
export interface ReadStatementUpload {
  parsed: ParsedStatement;
  planning: StatementPlanning;
  lines: LineChunks;
}

type UploadReading = { refused: UploadRefusal } | { parsed: ParseResult; planning: StatementPlanning };

/**
 * The statement read as the preview read it (readStatementUpload) and planned (`planUpload`: its line
 * keys), or its reading's refusal thrown as a Refusal. A planning refusal is answered as data: the import
 * throws it after its own checks of the parse. The caller closes `lines` when done with them.
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
  const { entries, ...rest } = reading.parsed;
  const { planning } = reading;
  return {
    parsed: summaryOf(rest, entries),
    planning,
    lines:
      'refused' in planning
        ? NO_LINES
        : chunksOf(entries, fileKeysOf(planning), statementOfEntry(planning.statements)),
  };
}

/** Every statement's keys in file order, as the file's entries are. */
export const fileKeysOf = (planning: { statements: PlannedStatement[] }): string[] =>
  planning.statements.flatMap((statement) => statement.keys);

/** The number of the statement each of the file's entries belongs to, by its index in the file. */
export function statementOfEntry(
  statements: readonly Pick<PlannedStatement, 'number' | 'firstEntry' | 'entryCount'>[],
): (fileIndex: number) => number {
  return (fileIndex) => {
    const statement = statements.find(
      (s) => fileIndex >= s.firstEntry && fileIndex < s.firstEntry + s.entryCount,
    );
    if (!statement) throw new RangeError(`entry ${fileIndex} belongs to no statement`);
    return statement.number;
  };
}

const refusalOf = (refusal: UploadRefusal) => refuse(refusal.code, { extra: refusal.extra });

/** The parse's rest with its entries' count and sum. */
export const summaryOf = (rest: Omit<ParseResult, 'entries'>, entries: readonly StatementEntry[]) => ({
  ...rest,
  entryCount: entries.length,
  entriesSumCents: entries.reduce((total, entry) => total + entry.amountCents, 0),
});

/** A refused plan's: nothing to hand out. */
const NO_LINES: LineChunks = { next: async () => null, close: () => undefined };

/** Entries held here, their rows built a chunk at a time (a small file read on this thread). */
function chunksOf(
  entries: readonly StatementEntry[],
  keys: readonly string[],
  statementOf: (fileIndex: number) => number,
): LineChunks {
  let start = 0;
  return {
    next: async (plan) => {
      if (start >= entries.length) return null;
      const end = start + ENTRIES_PER_CHUNK;
      const rows = lineRowsOf(entries.slice(start, end), keys.slice(start, end), statementOf, start, plan);
      start = end;
      return rows;
    },
    close: () => {
      start = entries.length;
    },
  };
}

/** The worker's work done on this thread: what a small file gets, and what the worker must answer alike. */
export function readAndPlan(
  bytes: Uint8Array,
  mapping: CsvMapping | undefined,
  chosenAccount: string | null,
): UploadReading {
  const reading = readStatementUpload(bytes, mapping);
  return 'refused' in reading ? reading : { ...reading, planning: planUpload(reading.parsed, chosenAccount) };
}

/**
 * The worker runs the TypeScript sources through tsx's loader, registered in the thread itself: loader
 * hooks of the process (`node --import tsx`, or vitest's) do not reach a worker thread on Node 20.
 */
const require = createRequire(import.meta.url);
const WORKER_BOOT = `import(${JSON.stringify(pathToFileURL(require.resolve('tsx/esm/api')).href)}).then(({ tsImport }) =>
  tsImport(${JSON.stringify(new URL('./parse-worker.ts', import.meta.url).href)}, ${JSON.stringify(import.meta.url)}))`;

/**
 * readAndPlan in a worker thread started for this one file. The worker answers the plan and the keys,
 * then keeps the entries and hands them over a chunk per `next()` until the last, or until `close()`
 * ends it (decision 0144): the parse is held once, in the worker, never copied whole to this thread.
 */
export function readInWorker(
  bytes: Uint8Array,
  mapping: CsvMapping | undefined,
  chosenAccount: string | null,
): Promise<ReadStatementUpload> {
  return new Promise((resolve, reject) => {
    // A copy handed over (transferred, not cloned again): the import still needs the original bytes. Not
    // `bytes.slice()`: on the Buffer a request body is, that is a view of the same memory, and handing
    // it over emptied the upload — its hash became the empty file's and its stored copy empty (0139).
    const copy = new Uint8Array(bytes);
    const worker = new Worker(WORKER_BOOT, {
      eval: true,
      workerData: { bytes: copy.buffer, mapping, chosenAccount },
      transferList: [copy.buffer],
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    });
    const keys: string[][] = [];
    let answered = false;
    let closed = false;
    let entryCount = 0;
    let handedOut = 0;
    // The `next()` waiting for the worker's rows, and how the worker's end fails it.
    let waiting: { resolve(rows: LineRows): void; reject(error: Error): void } | null = null;
    const close = () => {
      closed = true;
      void worker.terminate();
    };
    const lines: LineChunks = {
      next: (plan) => {
        if (closed || handedOut >= entryCount) return Promise.resolve(null);
        handedOut += plan.counters.length;
        return new Promise((resolve, reject) => {
          waiting = { resolve, reject };
          worker.postMessage(plan);
        });
      },
      close,
    };
    worker.on('message', (message: ReaderMessage) => {
      if (message.type === 'refused') {
        answered = true;
        reject(refusalOf(message.refusal));
        close();
      } else if (message.type === 'keys') {
        const ofStatement = keys[message.statement] ?? [];
        keys[message.statement] = ofStatement;
        for (const key of message.keys) ofStatement.push(key);
        worker.postMessage(READER_CHUNK_TAKEN);
      } else if (message.type === 'read') {
        answered = true;
        const { parsed, planning } = message;
        entryCount = 'refused' in planning ? 0 : parsed.entryCount;
        if (entryCount === 0) close();
        resolve({
          parsed,
          planning:
            'refused' in planning
              ? planning
              : {
                  statements: planning.statements.map((plan) => ({ ...plan, keys: keys[plan.number] ?? [] })),
                },
          lines,
        });
      } else {
        const asked = waiting;
        waiting = null;
        asked?.resolve(message.rows);
        if (handedOut >= entryCount) close();
      }
    });
    worker.on('error', (error) => {
      if (!answered) reject(error);
      waiting?.reject(error);
    });
    worker.on('exit', (code) => {
      const ended = new Error(`statement reader thread exited with code ${code} before answering`);
      if (!answered) reject(ended);
      waiting?.reject(ended);
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

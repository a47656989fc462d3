import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { CsvMapping, ParseResult, StatementEntry } from '../../domain/statements/types';
import { refuse } from '../platform/refusal';
import { type PlannedStatement, planUpload, type StatementPlanning } from './import-plan';
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

/** The API thread's answer to each chunk of keys, and its request for each chunk of entries (parse-worker.ts). */
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
  | { type: 'entries'; chunk: EntryChunk };

/** Some of the file's entries, in order, each with its line key (its statement's `statementLineKeys`). */
export interface EntryChunk {
  entries: StatementEntry[];
  keys: string[];
}

/**
 * The file's entries, statement after statement as `ParseResult.entries` holds them, ENTRIES_PER_CHUNK at
 * a time and once: the import inserts each chunk before it asks for the next, so the entries of the
 * whole file are never on the API thread at once (decision 0144).
 */
export interface EntryChunks {
  /** The next chunk, or null after the last. */
  next(): Promise<EntryChunk | null>;
  /** Lets the entries go (ends the thread that holds them); idempotent. */
  close(): void;
}

/** The statement read as the preview read it, planned with the account chosen for it (import-plan.ts). */
export interface ReadStatementUpload {
  parsed: ParsedStatement;
  planning: StatementPlanning;
  entries: EntryChunks;
}

type UploadReading = { refused: UploadRefusal } | { parsed: ParseResult; planning: StatementPlanning };

/**
 * The statement read as the preview read it (readStatementUpload) and planned (`planUpload`: its line
 * keys), or its reading's refusal thrown as a Refusal. A planning refusal is answered as data: the import
 * throws it after its own checks of the parse. The caller closes `entries` when done with them.
 */
export async function readUpload(
  bytes: Uint8Array,
  mapping: CsvMapping | undefined,
  chosenAccount: string | null,
): Promise<ReadStatementUpload> {
  if (bytes.byteLength >= READ_OFF_THREAD_FROM_BYTES) return readInWorker(bytes, mapping, chosenAccount);
  const reading = readAndPlan(bytes, mapping, chosenAccount);
  if ('refused' in reading) throw refusalOf(reading.refused);
  const { entries, ...rest } = reading.parsed;
  const { planning } = reading;
  return {
    parsed: summaryOf(rest, entries),
    planning,
    entries: chunksOf('refused' in planning ? [] : entries, fileKeysOf(planning)),
  };
}

/** Every statement's keys in file order, as the file's entries are (none for a refused plan). */
export const fileKeysOf = (planning: StatementPlanning): string[] =>
  'refused' in planning ? [] : planning.statements.flatMap((statement) => statement.keys);

/** The chunk of the file's entries and keys from `start`. */
export const chunkAt = (entries: readonly StatementEntry[], keys: readonly string[], start: number) => ({
  entries: entries.slice(start, start + ENTRIES_PER_CHUNK),
  keys: keys.slice(start, start + ENTRIES_PER_CHUNK),
});

const refusalOf = (refusal: UploadRefusal) => refuse(refusal.code, { extra: refusal.extra });

/** The parse's rest with its entries' count and sum. */
export const summaryOf = (rest: Omit<ParseResult, 'entries'>, entries: readonly StatementEntry[]) => ({
  ...rest,
  entryCount: entries.length,
  entriesSumCents: entries.reduce((total, entry) => total + entry.amountCents, 0),
});

/** Entries held here, handed out a chunk at a time (a small file read on this thread). */
function chunksOf(entries: readonly StatementEntry[], keys: readonly string[]): EntryChunks {
  let start = 0;
  return {
    next: async () => {
      if (start >= entries.length) return null;
      const chunk = chunkAt(entries, keys, start);
      start += ENTRIES_PER_CHUNK;
      return chunk;
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
    // The `next()` waiting for the worker's chunk, and how the worker's end fails it.
    let waiting: { resolve(chunk: EntryChunk): void; reject(error: Error): void } | null = null;
    const close = () => {
      closed = true;
      void worker.terminate();
    };
    const entries: EntryChunks = {
      next: () => {
        if (closed || handedOut >= entryCount) return Promise.resolve(null);
        return new Promise((resolve, reject) => {
          waiting = { resolve, reject };
          worker.postMessage(READER_CHUNK_TAKEN);
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
          entries,
        });
      } else {
        handedOut += message.chunk.entries.length;
        const asked = waiting;
        waiting = null;
        asked?.resolve(message.chunk);
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

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

/** The API thread's answer to each chunk: the worker sends the next one then (parse-worker.ts). */
export const READER_CHUNK_TAKEN = 'taken';

/** A planned statement as the worker sends it: its entries and keys travel in chunks of their own. */
type PlanOfLines = Omit<PlannedStatement, 'entries' | 'keys'>;

/** What the worker sends back (parse-worker.ts). */
export type ReaderMessage =
  | { type: 'refused'; refusal: UploadRefusal }
  | { type: 'entries'; entries: StatementEntry[] }
  | { type: 'keys'; statement: number; keys: string[] }
  | {
      type: 'read';
      rest: Omit<ParseResult, 'entries'>;
      planning: { refused: UploadRefusal } | { statements: PlanOfLines[] };
    };

/** The statement read as the preview read it, and planned with the account chosen for it (import-plan.ts). */
export interface ReadStatementUpload {
  parsed: ParseResult;
  planning: StatementPlanning;
}

type UploadReading = { refused: UploadRefusal } | ReadStatementUpload;

/**
 * The statement read as the preview read it (readStatementUpload) and planned (`planUpload`: its line
 * keys), or its reading's refusal thrown as a Refusal. A planning refusal is answered as data: the import
 * throws it after its own checks of the parse.
 */
export async function readUpload(
  bytes: Uint8Array,
  mapping: CsvMapping | undefined,
  chosenAccount: string | null,
): Promise<ReadStatementUpload> {
  const reading =
    bytes.byteLength < READ_OFF_THREAD_FROM_BYTES
      ? readAndPlan(bytes, mapping, chosenAccount)
      : await readInWorker(bytes, mapping, chosenAccount);
  if ('refused' in reading) throw refuse(reading.refused.code, { extra: reading.refused.extra });
  return reading;
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

/** readAndPlan in a worker thread started for this one file. */
export function readInWorker(
  bytes: Uint8Array,
  mapping: CsvMapping | undefined,
  chosenAccount: string | null,
): Promise<UploadReading> {
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
    const entries: StatementEntry[] = [];
    const keys: string[][] = [];
    let answered = false;
    const answer = (reading: UploadReading) => {
      answered = true;
      resolve(reading);
      void worker.terminate();
    };
    worker.on('message', (message: ReaderMessage) => {
      if (message.type === 'refused') answer({ refused: message.refusal });
      else if (message.type === 'entries') {
        for (const entry of message.entries) entries.push(entry);
        worker.postMessage(READER_CHUNK_TAKEN);
      } else if (message.type === 'keys') {
        const ofStatement = keys[message.statement] ?? [];
        keys[message.statement] = ofStatement;
        for (const key of message.keys) ofStatement.push(key);
        worker.postMessage(READER_CHUNK_TAKEN);
      } else {
        const parsed: ParseResult = { ...message.rest, entries };
        const { planning } = message;
        answer({
          parsed,
          planning:
            'refused' in planning
              ? planning
              : {
                  statements: planning.statements.map((plan) => {
                    const { firstEntry, entryCount } = parsed.statements[plan.number]!;
                    const lines = entries.slice(firstEntry, firstEntry + entryCount);
                    return { ...plan, entries: lines, keys: keys[plan.number] ?? [] };
                  }),
                },
        });
      }
    });
    worker.on('error', reject);
    worker.on('exit', (code) => {
      if (!answered) reject(new Error(`statement reader thread exited with code ${code} before answering`));
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

import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { FromJob, RowBatch, ToJob, WriterSetup } from './writer-protocol';

/**
 * The writer thread's heap (decision 0059: at default sizing V8 lets an XLSX writer's heap grow by
 * ~165 MiB before collecting; capped, it stays within ~30 MiB for ~40 % more CPU). A writer that
 * outgrows it stops with ERR_WORKER_OUT_OF_MEMORY and its job fails with that reason; the API lives on.
 */
export const WRITER_LIMITS = { maxYoungGenerationSizeMb: 3, maxOldGenerationSizeMb: 48 } as const;

const workerUrl = new URL(
  `./writer-worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`,
  import.meta.url,
);
// The sources run through tsx (npm start, tests): the thread needs the same loader to read TypeScript.
const execArgv = workerUrl.pathname.endsWith('.ts')
  ? ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href]
  : [];

/** The writer stopped: `reason` is the code stored on the job (XLSX_TOO_MANY_ROWS, WRITER_FAILED, …). */
export class WriterFailure extends Error {
  constructor(
    readonly reason: string,
    message: string,
  ) {
    super(message);
    this.name = 'WriterFailure';
  }
}

export interface WriterRun {
  /** The rows written, once every byte of the file has gone through `store`. */
  readonly done: Promise<number>;
  /** Ends the thread at once (a cancelled job); `done` then rejects with WRITER_STOPPED. */
  stop(): Promise<void>;
}

/**
 * Runs the file writer of `setup` in its own thread: batches are read from `batches` when the thread
 * asks (one ahead of the one it writes, so the database and the writer work at the same time), bytes
 * come back in order and are handed to `store` one at a time, `progress` hears how many rows the
 * writer has read.
 */
export function writeInThread(
  setup: WriterSetup,
  batches: AsyncIterator<RowBatch>,
  store: (chunk: Uint8Array) => Promise<void>,
  progress: (rowsRead: number) => void,
): WriterRun {
  const worker = new Worker(workerUrl, { workerData: setup, execArgv, resourceLimits: WRITER_LIMITS });
  const post = (message: FromJob) => worker.postMessage(message);
  let rowsSent = 0;
  let ended = false;
  let settled = false;
  let reading: Promise<void> = Promise.resolve();
  let storing: Promise<void> = Promise.resolve();
  let finish: (error: Error | null) => void = () => undefined;

  const done = new Promise<number>((resolve, reject) => {
    finish = (error: Error | null) => {
      if (settled) return;
      settled = true;
      void worker.terminate();
      if (error) reject(error);
      else resolve(rowsSent);
    };
    const fail = (error: unknown) =>
      finish(error instanceof Error ? error : new WriterFailure('WRITER_FAILED', String(error)));

    worker.on('message', (message: ToJob) => {
      switch (message.type) {
        case 'pull':
          progress(message.consumed);
          reading = reading
            .then(async () => {
              if (ended || settled) return;
              const next = await batches.next();
              if (next.done) {
                ended = true;
                post({ type: 'end' });
              } else {
                rowsSent += next.value.count;
                post({ type: 'rows', ...next.value });
              }
            })
            .catch(fail);
          break;
        case 'bytes':
          storing = storing
            .then(() => store(message.chunk))
            .then(() => {
              if (!settled) post({ type: 'written' });
            })
            .catch(fail);
          break;
        case 'done':
          storing.then(() => {
            progress(rowsSent);
            finish(null);
          }, fail);
          break;
        case 'failed':
          finish(new WriterFailure(message.reason, message.message));
          break;
      }
    });
    worker.on('error', (error: Error & { code?: string }) =>
      finish(new WriterFailure(error.code ?? 'WRITER_FAILED', error.message)),
    );
    worker.on('exit', () => finish(new WriterFailure('WRITER_STOPPED', 'the writer thread ended early')));
  });
  done.catch(() => undefined); // the caller awaits it; a failure before that is not unhandled

  return {
    done,
    async stop() {
      finish(new WriterFailure('WRITER_STOPPED', 'the export was stopped'));
      await worker.terminate();
    },
  };
}

import { MAX_SAFT_COMPRESSION_RATIO, MAX_SAFT_XML_BYTES } from '../../contract/limits';
import { openSaftBytes } from '../../domain/sources/compressed';
import { refuse } from '../platform/refusal';
import { startThread } from '../platform/threads';
import { READ_OFF_THREAD_FROM_BYTES, workerBoot } from '../statements/statement-reader';
import { type SaftSchemaCheck, saftSchemaErrors } from './saft-schema';

/**
 * An upload's check against the official XSD, running beside its read (decision 0163): started with the
 * read, in a worker thread of its own from the size a read leaves the API thread (or compressed), so the
 * two use both cores. Its verdict is awaited before the 202 for a file of up to `saftSchemaBeforeAcceptMaxBytes` of
 * XML, by the import job before its transaction for a bigger one.
 */

export interface SaftSchemaRun {
  /** The verdict (rejects when the thread fails; never left unhandled). */
  result: Promise<SaftSchemaCheck>;
  /** Invoices checked so far: the job's progress while it waits. */
  invoicesChecked(): number;
  /** Ends the check: its upload was refused or its import will not run. */
  cancel(): void;
}

/**
 * The thread's heap: a piece (~4 MiB of entries, twice as UTF-16 text), the frame, the customers and
 * products; a young generation of its own for short-lived strings by the million, as the reading thread's
 * (source-reader.ts, decisions 0157, 0168).
 */
const CHECKER_HEAP = { oldMb: 1_024, youngMb: 48 };
const WORKER_BOOT = workerBoot(new URL('./saft-schema-worker.ts', import.meta.url));

/**
 * Whether the check may run on the API thread: a small upload of plain XML. A small compressed one may hold
 * up to `MAX_SAFT_COMPRESSION_RATIO` times its size — seconds of validation the event loop must not wait.
 */
const checkedHere = (upload: Uint8Array) =>
  upload.byteLength < READ_OFF_THREAD_FROM_BYTES &&
  openSaftBytes(upload, { maxBytes: MAX_SAFT_XML_BYTES, maxRatio: MAX_SAFT_COMPRESSION_RATIO }).container ===
    'xml';

export function startSaftSchemaCheck(upload: Uint8Array): SaftSchemaRun {
  let invoices = 0;
  if (checkedHere(upload)) {
    const result = saftSchemaErrors(upload, { onProgress: (n) => (invoices = n) });
    result.catch(() => undefined);
    return { result, invoicesChecked: () => invoices, cancel: () => undefined };
  }
  // A copy handed over: the import still stores the original bytes.
  const copy = new Uint8Array(upload);
  const worker = startThread(WORKER_BOOT, CHECKER_HEAP, {
    workerData: { bytes: copy.buffer },
    transferList: [copy.buffer],
  });
  let cancelled = false;
  const result = new Promise<SaftSchemaCheck>((resolve, reject) => {
    let answered = false;
    worker.on('message', (message: { invoices: number } | { check: SaftSchemaCheck }) => {
      if ('invoices' in message) {
        invoices = message.invoices;
        return;
      }
      answered = true;
      resolve(message.check);
      void worker.terminate();
    });
    worker.once('error', (error) => {
      if (!answered) reject(error);
    });
    worker.once('exit', (code) => {
      if (!answered)
        reject(new Error(`SAF-T schema thread ${cancelled ? 'cancelled' : `exited with code ${code}`}`));
    });
  });
  result.catch(() => undefined);
  return {
    result,
    invoicesChecked: () => invoices,
    cancel() {
      cancelled = true;
      void worker.terminate();
    },
  };
}

/** `SAFT_SCHEMA_INVALID` (422) with the first complaints, `line N: message`, and the first one's line. */
export function schemaRefusal(errors: string[]) {
  const line = Number(/^line (\d+):/.exec(errors[0]!)?.[1] ?? 1);
  return refuse('SAFT_SCHEMA_INVALID', { extra: { schemaErrors: errors, line } });
}

import type { ProviderCsvMapping } from '../../domain/sources/provider-csv';
import type { SourceKind } from '../../domain/sources/source-ids';
import { refuse } from '../platform/refusal';
import { startThread } from '../platform/threads';
import { READ_OFF_THREAD_FROM_BYTES, workerBoot } from '../statements/statement-reader';
import { type SaftSchemaRun, schemaRefusal, startSaftSchemaCheck } from './saft-schema-run';
import { readSourceUpload, type SourceReading, type SourceUploadReading } from './source-reading';

/**
 * Where an uploaded source file is read (decision 0152), as a statement is (statement-reader.ts,
 * decision 0122): inside the instance's one upload slot, which the import holds until it ends, and off
 * the event loop in a worker thread from the same size — a month of 100,000 invoices is seconds of CPU.
 */

/**
 * The reading thread's heap. Its young generation is its own, not the API thread's 4 MiB semi-spaces
 * (decision 0085): a SAF-T month makes millions of short-lived strings and objects, and with 4 MiB
 * semi-spaces most were promoted and collected again by full collections (decision 0157; in force under
 * `npm start` only since decision 0168, `startThread`).
 */
const READER_HEAP = { oldMb: 1_536, youngMb: 48 };
const WORKER_BOOT = workerBoot(new URL('./source-worker.ts', import.meta.url));

export interface SourceRead {
  reading: SourceReading;
  /**
   * A SAF-T over `schemaBeforeAcceptMaxBytes` of XML: its check against the official XSD, still running,
   * whose verdict the import job awaits before committing (decision 0163). Null when already passed.
   */
  schema: SaftSchemaRun | null;
}

/**
 * The file's rows as the import inserts them, or its reader's refusal thrown (422/413/415 with its facts).
 * A SAF-T is checked against the official XSD beside the read (decision 0163): up to
 * `schemaBeforeAcceptMaxBytes` of XML the verdict is awaited here (`SAFT_SCHEMA_INVALID` 422 with its
 * `schemaErrors`), a bigger file's is handed to the job.
 */
export async function readSource(
  kind: SourceKind,
  bytes: Uint8Array,
  mapping: ProviderCsvMapping | undefined,
  options: { schemaBeforeAcceptMaxBytes: number },
): Promise<SourceRead> {
  const schema = kind === 'SAFT_INVOICES' ? startSaftSchemaCheck(bytes) : null;
  let read: SourceUploadReading;
  try {
    read =
      bytes.byteLength >= READ_OFF_THREAD_FROM_BYTES
        ? await readInWorker(kind, bytes, mapping)
        : await readSourceUpload(kind, bytes, mapping);
  } catch (error) {
    schema?.cancel();
    throw error;
  }
  if ('refused' in read) {
    schema?.cancel();
    const { code, line, extra } = read.refused;
    throw refuse(code, { extra: { ...extra, ...(line === undefined ? {} : { line }) } });
  }
  const { reading } = read;
  if (!schema) return { reading, schema: null };
  if ((reading.xmlBytes ?? 0) > options.schemaBeforeAcceptMaxBytes) return { reading, schema };
  const check = await schema.result;
  if (check.checked && check.errors.length > 0) throw schemaRefusal(check.errors);
  reading.summary.schemaChecked = check.checked;
  return { reading, schema: null };
}

function readInWorker(
  kind: SourceKind,
  bytes: Uint8Array,
  mapping: ProviderCsvMapping | undefined,
): Promise<SourceUploadReading> {
  return new Promise((resolve, reject) => {
    // A copy handed over: the import still stores the original bytes (statement-reader.ts says why not `slice`).
    const copy = new Uint8Array(bytes);
    const worker = startThread(WORKER_BOOT, READER_HEAP, {
      workerData: { kind, bytes: copy.buffer, mapping },
      transferList: [copy.buffer],
    });
    let answered = false;
    worker.once('message', (message: SourceUploadReading) => {
      answered = true;
      resolve(message);
      void worker.terminate();
    });
    worker.once('error', (error) => {
      if (!answered) reject(error);
    });
    worker.once('exit', (code) => {
      if (!answered) reject(new Error(`source reader thread exited with code ${code}`));
    });
  });
}

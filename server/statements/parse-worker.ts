import { parentPort, workerData } from 'node:worker_threads';
import type { CsvMapping } from '../../domain/statements/types';
import type { ReaderMessage } from './statement-reader';
import { readStatementUpload } from './upload-guards';

/**
 * A worker thread's whole life (statement-reader.ts): read one uploaded statement, send back the refusal
 * or the entries in chunks — each chunk its own message, so the API thread copies them in
 * pieces between requests instead of one long pause — then the rest of the parse, and exit.
 */

/** Entries per message: a few milliseconds of copying on the API thread each. */
const ENTRIES_PER_MESSAGE = 10_000;

const { bytes, mapping } = workerData as { bytes: ArrayBuffer; mapping: CsvMapping | undefined };
const post = (message: ReaderMessage) => parentPort!.postMessage(message);
const reading = readStatementUpload(new Uint8Array(bytes), mapping);
if ('refused' in reading) post({ type: 'refused', refusal: reading.refused });
else {
  const { entries, ...rest } = reading.parsed;
  for (let start = 0; start < entries.length; start += ENTRIES_PER_MESSAGE) {
    const end = Math.min(entries.length, start + ENTRIES_PER_MESSAGE);
    post({ type: 'entries', entries: entries.slice(start, end) });
  }
  post({ type: 'read', rest });
}

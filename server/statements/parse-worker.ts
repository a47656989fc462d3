import { parentPort, workerData } from 'node:worker_threads';
import type { CsvMapping } from '../../domain/statements/types';
import {
  holding,
  type LinesAtHand,
  type ReaderMessage,
  type ReaderRequest,
  readAndPlan,
} from './statement-reader';

/**
 * A worker thread's whole life (statement-reader.ts): read one uploaded statement and plan it (its
 * statements and their line keys: hashing 600,000 lines is more than a second of CPU, decision 0139),
 * send back the refusal, or the parse's summary and the plan without keys. Then keep the entries and
 * keys and answer the API thread's requests, one at a time: a piece of a statement's keys (to recognise
 * the known lines), or the next chunk's INSERT rows from the import's plan of it (line-rows.ts), which
 * lets that chunk's entries and keys go (decision 0144). The API thread ends it when the import is done
 * or the upload refused.
 */

const data = workerData as {
  bytes: ArrayBuffer | null;
  mapping: CsvMapping | undefined;
  chosenAccount: string | null;
};
const { mapping, chosenAccount } = data;
/** The upload, referenced from nowhere else once taken: let go as soon as it is decoded (upload-guards.ts). */
const takeUpload = () => {
  const bytes = new Uint8Array(data.bytes!);
  data.bytes = null;
  return bytes;
};
const post = (message: ReaderMessage, transfer: ArrayBuffer[] = []) =>
  parentPort!.postMessage(message, transfer);
/**
 * Reads and plans the upload, posts the answer and returns what stays held (null: nothing to answer
 * after). A function, not the module's top level: a module's variables live as long as the thread, and
 * the reading's parse (its summary, skipped lines, errors) is sent and not needed after. At the top
 * level it also kept the CSV header, then a slice of the decoded text, and with it the whole text
 * (~70 MiB for 600,000 lines with accents) through the import (decision 0150).
 */
function readAndAnswer(): LinesAtHand | null {
  const reading = readAndPlan(takeUpload, mapping, chosenAccount);
  if ('refused' in reading) {
    post({ type: 'refused', refusal: reading.refused });
    return null;
  }
  const { parsed, planning, held } = holding(reading);
  post({ type: 'read', parsed, planning });
  return held;
}

const held = readAndAnswer();
if (held)
  parentPort!.on('message', (request: ReaderRequest) => {
    if (request.type === 'keys') {
      const digests = held.keys(request.statement, request.start, request.end);
      post({ type: 'keys', digests }, [digests.buffer as ArrayBuffer]);
    } else {
      const rows = held.rows(request.plan);
      // Handed over, not copied: the worker has no use for the bytes once sent.
      post({ type: 'rows', rows }, rows ? [rows.literals.buffer as ArrayBuffer] : []);
    }
  });

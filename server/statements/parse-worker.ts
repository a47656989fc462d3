import { parentPort, workerData } from 'node:worker_threads';
import type { CsvMapping, StatementEntry } from '../../domain/statements/types';
import {
  chunkAt,
  ENTRIES_PER_CHUNK,
  fileKeysOf,
  type ReaderMessage,
  readAndPlan,
  summaryOf,
} from './statement-reader';

/**
 * A worker thread's whole life (statement-reader.ts): read one uploaded statement and plan it (its
 * statements and their line keys: hashing 600,000 lines is more than a second of CPU, decision 0139),
 * send back the refusal, or the keys in chunks and then the plan — each chunk its own message, the next
 * one sent only once the API thread has answered (`READER_CHUNK_TAKEN`): messages posted all at once are
 * delivered in one turn of its event loop, a second of copying at 600,000 lines. Then it keeps the
 * entries and hands them over a chunk per request of the import, letting each go once sent, and exits
 * after the last (decision 0144); the API thread ends it sooner when the upload is refused.
 */

/** Keys per message: a few milliseconds of copying on the API thread each. */
const KEYS_PER_MESSAGE = 10_000;

const { bytes, mapping, chosenAccount } = workerData as {
  bytes: ArrayBuffer;
  mapping: CsvMapping | undefined;
  chosenAccount: string | null;
};
const post = (message: ReaderMessage) => parentPort!.postMessage(message);
const answered = () => new Promise<void>((resolve) => parentPort!.once('message', () => resolve()));
const reading = readAndPlan(new Uint8Array(bytes), mapping, chosenAccount);
if ('refused' in reading) post({ type: 'refused', refusal: reading.refused });
else {
  const { entries: parsedEntries, ...rest } = reading.parsed;
  // Held here only: each chunk's entries are let go once sent.
  const entries: (StatementEntry | undefined)[] = parsedEntries;
  const parsed = summaryOf(rest, parsedEntries);
  const { planning } = reading;
  if ('refused' in planning) post({ type: 'read', parsed, planning });
  else {
    for (const { number, keys } of planning.statements)
      for (let start = 0; start < keys.length; start += KEYS_PER_MESSAGE) {
        const sent = answered();
        post({ type: 'keys', statement: number, keys: keys.slice(start, start + KEYS_PER_MESSAGE) });
        await sent;
      }
    const statements = planning.statements.map(({ keys: _sent, ...plan }) => plan);
    post({ type: 'read', parsed, planning: { statements } });
    // Each chunk goes with its lines' keys: the API thread lets its own go once it has recognised them.
    const keys: (string | undefined)[] = fileKeysOf(planning);
    planning.statements.length = 0;
    for (let start = 0; start < entries.length; start += ENTRIES_PER_CHUNK) {
      await answered();
      post({ type: 'entries', chunk: chunkAt(entries as StatementEntry[], keys as string[], start) });
      entries.fill(undefined, start, start + ENTRIES_PER_CHUNK);
      keys.fill(undefined, start, start + ENTRIES_PER_CHUNK);
    }
  }
}

import { parentPort, workerData } from 'node:worker_threads';
import type { CsvMapping } from '../../domain/statements/types';
import { planUpload } from './import-plan';
import type { ReaderMessage } from './statement-reader';
import { readStatementUpload } from './upload-guards';

/**
 * A worker thread's whole life (statement-reader.ts): read one uploaded statement and plan it (its
 * statements and their line keys: hashing 600,000 lines is more than a second of CPU, decision 0139),
 * send back the refusal or the entries and keys in chunks — each chunk its own message, the next one sent
 * only once the API thread has taken it (`READER_CHUNK_TAKEN`): messages posted all at once are delivered
 * in one turn of its event loop, a second of copying at 600,000 lines — then the rest, and exit.
 */

/** Entries per message: a few milliseconds of copying on the API thread each. */
const ENTRIES_PER_MESSAGE = 10_000;

const { bytes, mapping, chosenAccount } = workerData as {
  bytes: ArrayBuffer;
  mapping: CsvMapping | undefined;
  chosenAccount: string | null;
};
const post = (message: ReaderMessage) => parentPort!.postMessage(message);
const sendChunk = (message: ReaderMessage) =>
  new Promise<void>((resolve) => {
    parentPort!.once('message', () => resolve());
    post(message);
  });
const reading = readStatementUpload(new Uint8Array(bytes), mapping);
if ('refused' in reading) post({ type: 'refused', refusal: reading.refused });
else {
  const { entries, ...rest } = reading.parsed;
  const planning = planUpload(reading.parsed, chosenAccount);
  for (let start = 0; start < entries.length; start += ENTRIES_PER_MESSAGE) {
    const end = Math.min(entries.length, start + ENTRIES_PER_MESSAGE);
    await sendChunk({ type: 'entries', entries: entries.slice(start, end) });
  }
  if ('refused' in planning) post({ type: 'read', rest, planning });
  else {
    for (const { number, keys } of planning.statements)
      for (let start = 0; start < keys.length; start += ENTRIES_PER_MESSAGE)
        await sendChunk({
          type: 'keys',
          statement: number,
          keys: keys.slice(start, start + ENTRIES_PER_MESSAGE),
        });
    const statements = planning.statements.map(({ number, identity, currency, balance, pending }) => ({
      number,
      identity,
      currency,
      balance,
      pending,
    }));
    post({ type: 'read', rest, planning: { statements } });
  }
}

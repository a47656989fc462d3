import { parentPort, workerData } from 'node:worker_threads';
import type { CsvMapping, StatementEntry } from '../../domain/statements/types';
import { type ChunkPlan, lineRowsOf } from './line-rows';
import {
  ENTRIES_PER_CHUNK,
  fileKeysOf,
  type ReaderMessage,
  readAndPlan,
  statementOfEntry,
  summaryOf,
} from './statement-reader';

/**
 * A worker thread's whole life (statement-reader.ts): read one uploaded statement and plan it (its
 * statements and their line keys: hashing 600,000 lines is more than a second of CPU, decision 0139),
 * send back the refusal, or the keys in chunks and then the plan — each chunk its own message, the next
 * one sent only once the API thread has answered (`READER_CHUNK_TAKEN`): messages posted all at once are
 * delivered in one turn of its event loop, a second of copying at 600,000 lines. Then it keeps the
 * entries and, for each chunk's plan the import sends (which lines are new, their ids' order), answers
 * that chunk's rows (line-rows.ts), letting its entries go; it exits after the last (decision 0144). The
 * API thread ends it sooner when the upload is refused.
 */

/** Keys per message: a few milliseconds of copying on the API thread each. */
const KEYS_PER_MESSAGE = 10_000;

const { bytes, mapping, chosenAccount } = workerData as {
  bytes: ArrayBuffer;
  mapping: CsvMapping | undefined;
  chosenAccount: string | null;
};
const post = (message: ReaderMessage) => parentPort!.postMessage(message);
/** The API thread's next message: its answer to a chunk of keys, or the plan of the next chunk of rows. */
const nextMessage = <T>() => new Promise<T>((resolve) => parentPort!.once('message', resolve));
const reading = readAndPlan(new Uint8Array(bytes), mapping, chosenAccount);
if ('refused' in reading) post({ type: 'refused', refusal: reading.refused });
else {
  const { entries: parsedEntries, ...rest } = reading.parsed;
  // Held here only: each chunk's entries and keys are let go once its rows are sent.
  const entries: (StatementEntry | undefined)[] = parsedEntries;
  const parsed = summaryOf(rest, parsedEntries);
  const { planning } = reading;
  if ('refused' in planning) post({ type: 'read', parsed, planning });
  else {
    for (const { number, keys } of planning.statements)
      for (let start = 0; start < keys.length; start += KEYS_PER_MESSAGE) {
        const taken = nextMessage();
        post({ type: 'keys', statement: number, keys: keys.slice(start, start + KEYS_PER_MESSAGE) });
        await taken;
      }
    const statements = planning.statements.map(({ keys: _sent, ...plan }) => plan);
    const statementOf = statementOfEntry(statements);
    const keys: (string | undefined)[] = fileKeysOf(planning);
    planning.statements.length = 0;
    const plans = nextMessage<ChunkPlan>();
    post({ type: 'read', parsed, planning: { statements } });
    let plan = await plans;
    for (let start = 0; start < entries.length; start += ENTRIES_PER_CHUNK) {
      const end = start + ENTRIES_PER_CHUNK;
      const rows = lineRowsOf(
        entries.slice(start, end) as StatementEntry[],
        keys.slice(start, end) as string[],
        statementOf,
        start,
        plan,
      );
      entries.fill(undefined, start, end);
      keys.fill(undefined, start, end);
      if (end >= entries.length) post({ type: 'rows', rows });
      else {
        const following = nextMessage<ChunkPlan>();
        post({ type: 'rows', rows });
        plan = await following;
      }
    }
  }
}

import type { Queryable } from '../db/client';
import { type KeysetQuery, keysetTextBatches } from '../db/list';
import { WriterFailure, type WriterRun } from './writer-thread';

/**
 * Writes a CSV export on the API thread from lines PostgreSQL finished (`csvRows`, decision 0083): each
 * keyset batch arrives as one string, its lines joined by PostgreSQL, and is stored as one chunk while
 * the next batch is already being read. No row is parsed or formatted here, so a writer thread would
 * only add a copy.
 */
export function writeCsvLines(
  db: Queryable,
  query: KeysetQuery,
  head: string,
  batchSize: number,
  store: (chunk: Uint8Array) => Promise<void>,
  progress: (rowsRead: number) => void,
): WriterRun {
  let stopped = false;
  const batches = keysetTextBatches(db, query, batchSize, 'line', '\r\n');
  const done = (async () => {
    await store(Buffer.from(head, 'utf8'));
    let rows = 0;
    let next = batches.next();
    for (;;) {
      const batch = await next;
      if (stopped) throw new WriterFailure('WRITER_STOPPED', 'the export was stopped');
      if (batch.done) return rows;
      next = batches.next();
      next.catch(() => undefined); // awaited on the next turn; a stop may leave it behind
      await store(Buffer.from(batch.value.text, 'utf8'));
      rows += batch.value.count;
      progress(rows);
    }
  })();
  done.catch(() => undefined); // the caller awaits it; a failure before that is not unhandled
  return {
    done,
    async stop() {
      stopped = true;
      await done.catch(() => undefined);
    },
  };
}

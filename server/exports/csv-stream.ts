import type { Queryable } from '../db/client';
import { type KeysetQuery, keysetBatches } from '../db/list';
import { WriterFailure, type WriterRun } from './writer-thread';

/**
 * Writes a CSV export on the API thread from lines PostgreSQL finished (`csvRows`, decision 0083): each
 * keyset batch's lines are joined into one string and stored as one chunk, while the next batch is
 * already being read. No row is parsed or formatted here, so a writer thread would only add a copy.
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
  const batches = keysetBatches<{ id: string; line: string }>(db, query, batchSize);
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
      let text = '';
      for (const row of batch.value) text += `${row.line}\r\n`;
      await store(Buffer.from(text, 'utf8'));
      rows += batch.value.length;
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

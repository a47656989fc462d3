import { type CopiedCsv, CopyCsvReader, type ExportLocale } from '../../domain/export-files';
import type { Database } from '../db/client';
import type { KeysetPosition, KeysetQuery } from '../db/list';
import { batchClauses, copyBatch } from './copy-batch';
import { csvCopyOptions } from './csv-sql';
import { WriterFailure, type WriterRun } from './writer';

/**
 * Writes a CSV export from PostgreSQL's COPY (docs/decisions/0090): each keyset batch is one
 * `COPY (SELECT …) TO STDOUT (FORMAT csv)` whose bytes `CopyCsvReader` turns into the export's lines as
 * they arrive — no row, no cell and no line is ever a JavaScript string. While a batch is stored the
 * next one is already being read (its position is the batch's last row: the sort key and id COPY
 * writes last on each line).
 */

/** What a CSV export reads: the keyset over its cells' select (`csvCopyCells`) and which are text. */
export interface CsvCopyQuery {
  query: KeysetQuery;
  textCells: readonly boolean[];
  locale: ExportLocale;
}

/** One batch's select: the cells, then the sort key and id (values inlined, `batchClauses`). */
export function copyBatchSelect(query: KeysetQuery, position: KeysetPosition | null, count: number): string {
  const { rest, inline } = batchClauses(query, position, count);
  return inline(`SELECT ${query.select}, (${query.sort.sql})::text, (${query.id})::text ${rest}`);
}

async function readBatch(
  db: Database,
  source: CsvCopyQuery,
  reader: CopyCsvReader,
  position: KeysetPosition | null,
  count: number,
): Promise<CopiedCsv> {
  const select = copyBatchSelect(source.query, position, count);
  await copyBatch(db, select, csvCopyOptions(source.locale), (bytes) => reader.push(bytes));
  return reader.take();
}

export function writeCsvCopy(
  db: Database,
  source: CsvCopyQuery,
  head: string,
  batchSize: number,
  store: (chunk: Uint8Array) => Promise<void>,
  progress: (rowsRead: number) => void,
): WriterRun {
  let stopped = false;
  const reader = new CopyCsvReader(source.textCells, source.locale === 'pt-PT' ? ';' : ',');
  const done = (async () => {
    await store(Buffer.from(head, 'utf8'));
    let rows = 0;
    let next: Promise<CopiedCsv> | null = readBatch(db, source, reader, null, batchSize);
    while (next) {
      const batch: CopiedCsv = await next;
      if (stopped) throw new WriterFailure('WRITER_STOPPED', 'the export was stopped');
      next = null;
      if (batch.rows === batchSize) {
        const [key, id] = batch.lastKey as [string, string];
        next = readBatch(db, source, reader, { key, id }, batchSize);
        next.catch(() => undefined); // awaited on the next turn; a stop may leave it behind
      }
      // Stored before the next batch is taken: the reader's other buffer is this one (`take`).
      if (batch.rows > 0) await store(batch.bytes);
      rows += batch.rows;
      progress(rows);
    }
    return rows;
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

import { type CopiedCsv, CopyCsvReader, type ExportLocale } from '../../domain/export-files';
import { type Database, sqlLiteral } from '../db/client';
import { after, type KeysetPosition, type KeysetQuery, SqlParams, whereClause } from '../db/list';
import { csvCopyOptions } from './csv-sql';
import { WriterFailure, type WriterRun } from './writer-thread';

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

/**
 * One batch's select with its values inlined (COPY takes no parameters): the cells, then the sort key
 * and id. The statements are the export's own; their `$n` are only ever parameters.
 */
export function copyBatchSelect(query: KeysetQuery, position: KeysetPosition | null, count: number): string {
  const params = new SqlParams();
  params.values.push(...query.params.values);
  const where = [...query.where];
  if (position)
    where.push(after(params, query.sort.sql, query.sort.type, query.id, query.order, position, query.idType));
  const text = `SELECT ${query.select}, (${query.sort.sql})::text, (${query.id})::text ${query.from}
    ${whereClause(where)} ORDER BY ${query.sort.sql} ${query.order}, ${query.id} ${query.order} LIMIT ${count}`;
  return text.replace(/\$(\d+)/g, (_, n: string) => sqlLiteral(params.values[Number(n) - 1]));
}

/**
 * Each batch in a short transaction with PostgreSQL's JIT off (a batch is costed above `jit_above_cost`
 * and was compiled again for every batch: more CPU than the batch itself, decision 0083) and DateStyle
 * ISO (the instants' text, `csvCopyCells`).
 */
async function readBatch(
  db: Database,
  source: CsvCopyQuery,
  reader: CopyCsvReader,
  position: KeysetPosition | null,
  count: number,
): Promise<CopiedCsv> {
  const select = copyBatchSelect(source.query, position, count);
  await db.transaction(async (tx) => {
    if (!tx.copyOut) throw new Error('this database connection cannot COPY');
    await tx.query(`SELECT set_config('jit', 'off', true), set_config('DateStyle', 'ISO, YMD', true)`);
    await tx.copyOut(select, csvCopyOptions(source.locale), (bytes) => reader.push(bytes));
  });
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

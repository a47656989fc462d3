import { crc32, createDeflateRaw, type DeflateRaw } from 'node:zlib';
import { type AsyncFlateStreamHandler, Zip, type ZipInputFile, ZipPassThrough } from 'fflate';
import {
  type CopiedRows,
  CopyRowsReader,
  type ExportColumn,
  type ExportRow,
  SHEET_PART,
  SHEET_TAIL,
  sheetHead,
  XLSX_MAX_ROWS,
  xlsxPackageParts,
} from '../../domain/export-files';
import type { Database } from '../db/client';
import type { KeysetPosition } from '../db/list';
import { copyBatch } from './copy-batch';
import { WriterFailure, type WriterRun } from './writer';
import { type XlsxCopyQuery, xlsxBatchSelect } from './xlsx-sql';

/**
 * Writes an XLSX export whose sheet rows PostgreSQL builds (docs/decisions/0105): each keyset batch is
 * one `COPY (SELECT <row> XML, key, id …) TO STDOUT (FORMAT binary)`, its rows' bytes collected by
 * `CopyRowsReader` and deflated by zlib (in libuv's threads, off the API thread); the package around
 * the sheet is fflate's streaming zip. No row, cell or value is a JavaScript string. While a batch is
 * deflated the next one is read; a batch's bytes are reused only once zlib has read them, so memory is
 * two batches and zlib's window whatever the row count.
 */

/** What the writer needs besides the rows: the columns (headers translated) and the sheet's name. */
export interface XlsxSheet {
  columns: readonly ExportColumn[];
  sheetName: string;
  /** The first rows as values (the domain's `ExportRow`), to size the columns as `xlsxChunks` does. */
  sample: () => Promise<ExportRow[]>;
}

/** zlib's level for the sheet: see decision 0105 for the measurement. */
export const SHEET_DEFLATE_LEVEL = 1;
/** Where the zip's entries say they were modified: fixed, as in `xlsxChunks`, so equal rows give equal bytes. */
const MODIFIED_AT = new Date(2000, 0, 1);
/** fflate writes no ZIP64: no entry may reach 4 GiB uncompressed. */
const MAX_PART_BYTES = 0xffff_ffff;

/** A zip entry deflated by node's zlib (its CRC-32 from zlib too); fflate's Zip frames it. */
class ZlibEntry implements ZipInputFile {
  readonly compression = 8;
  crc = 0;
  size = 0;
  mtime = MODIFIED_AT;
  ondata?: AsyncFlateStreamHandler;
  private readonly deflate: DeflateRaw;
  private readonly ended: Promise<void>;

  constructor(
    readonly filename: string,
    level: number,
  ) {
    this.deflate = createDeflateRaw({ level });
    this.deflate.on('data', (chunk: Buffer) =>
      this.ondata!(null, new Uint8Array(chunk.buffer as ArrayBuffer, chunk.byteOffset, chunk.length), false),
    );
    this.ended = new Promise((resolve, reject) => {
      this.deflate.on('end', () => {
        this.ondata!(null, new Uint8Array(0), true);
        resolve();
      });
      this.deflate.on('error', reject);
    });
    this.ended.catch(() => undefined); // surfaced by `write` or `end`
  }

  /** Resolves once zlib has read `bytes`: the caller may then reuse them. */
  write(bytes: Uint8Array): Promise<void> {
    this.size += bytes.length;
    this.crc = crc32(bytes, this.crc);
    return new Promise((resolve, reject) =>
      this.deflate.write(bytes, (error) => (error ? reject(error) : resolve())),
    );
  }

  end(): Promise<void> {
    this.deflate.end();
    return this.ended;
  }

  destroy(): void {
    this.deflate.destroy();
  }
}

export function writeXlsxCopy(
  db: Database,
  source: XlsxCopyQuery,
  sheet: XlsxSheet,
  batchSize: number,
  store: (chunk: Uint8Array) => Promise<void>,
  progress: (rowsRead: number) => void,
): WriterRun {
  let stopped = false;
  const reader = new CopyRowsReader();
  const encoder = new TextEncoder();
  const entry = new ZlibEntry(SHEET_PART, SHEET_DEFLATE_LEVEL);

  async function readBatch(position: KeysetPosition | null, firstRow: number): Promise<CopiedRows> {
    const select = xlsxBatchSelect(source.keyset, source.cells, position, batchSize, firstRow);
    await copyBatch(db, select, 'FORMAT binary', (bytes) => reader.push(bytes));
    return reader.take();
  }

  const done = (async () => {
    let out: Uint8Array[] = [];
    let failure: Error | null = null;
    const zip = new Zip((error, data) => {
      if (error) failure = error;
      else out.push(data);
    });
    const flush = async () => {
      if (failure) throw failure;
      const ready = out;
      out = [];
      for (const chunk of ready) await store(chunk);
    };
    for (const [name, xml] of xlsxPackageParts(sheet.sheetName)) {
      const part = new ZipPassThrough(name);
      part.mtime = MODIFIED_AT;
      zip.add(part);
      part.push(encoder.encode(xml), true);
    }
    zip.add(entry);
    await flush();

    let sheetBytes = 0;
    const write = async (bytes: Uint8Array) => {
      sheetBytes += bytes.length;
      if (sheetBytes >= MAX_PART_BYTES)
        throw new WriterFailure(
          'XLSX_TOO_LARGE',
          'the sheet would reach 4 GiB, more than a ZIP without ZIP64 holds',
        );
      await entry.write(bytes);
      await flush();
    };
    await write(encoder.encode(sheetHead(sheet.columns, await sheet.sample())));
    let rows = 0;
    let next: Promise<CopiedRows> | null = readBatch(null, 2);
    while (next) {
      const batch: CopiedRows = await next;
      if (stopped) throw new WriterFailure('WRITER_STOPPED', 'the export was stopped');
      next = null;
      if (rows + batch.rows > XLSX_MAX_ROWS - 1)
        throw new WriterFailure(
          'XLSX_TOO_MANY_ROWS',
          `an Excel sheet holds at most ${XLSX_MAX_ROWS - 1} data rows`,
        );
      if (batch.rows === batchSize) {
        const [key, id] = batch.lastKey as [string, string];
        next = readBatch({ key, id }, rows + batch.rows + 2);
        next.catch(() => undefined); // awaited on the next turn; a stop may leave it behind
      }
      // Written before the next batch is taken: the reader's other buffer is this one (`take`).
      if (batch.rows > 0) await write(batch.bytes);
      rows += batch.rows;
      progress(rows);
    }
    await entry.write(encoder.encode(SHEET_TAIL));
    await entry.end();
    zip.end();
    await flush();
    return rows;
  })();
  done.catch(() => {
    entry.destroy();
  }); // the caller awaits it; a failure before that is not unhandled
  return {
    done,
    async stop() {
      stopped = true;
      await done.catch(() => undefined);
    },
  };
}

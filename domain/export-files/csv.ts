// CSV export writer: UTF-8 with BOM, RFC 4180 quoting, locale-aware separator and decimal mark.
//
// Why `;` for pt-PT: Excel opens a .csv with the list separator of the Windows region settings, which is
// `;` wherever the decimal mark is a comma (pt-PT). A comma-separated file then lands in one column, and
// `12.50` is not read as a number. en-GB Excel splits on `,` and reads `12.50`. The BOM makes Excel read
// UTF-8 (accents in names) instead of the ANSI code page. No `sep=;` line: Excel ignores the BOM after it.
//
// Cells: text as given but neutralised (neutralise.ts); integers as digits; money from integer cents with
// two decimals and the locale's decimal mark, no grouping (`-1234,50`); dates `YYYY-MM-DD`; datetimes
// `YYYY-MM-DD HH:MM:SS` as the wall clock in Europe/Lisbon (the business's zone, whatever the server's);
// booleans as words (`Sim`/`Não`, `Yes`/`No`); null/undefined empty. Lines end in CRLF (RFC 4180).

import { booleanValue, cents, centsFixed2, dateText, datetimeText, integerText, isEmpty } from './cells';
import {
  assertColumns,
  BOOLEAN_WORDS,
  type ExportColumn,
  type ExportLocale,
  type ExportRow,
  type ExportRows,
  rowPuller,
} from './columns';
import { csvPhoneText, neutralise } from './neutralise';

export interface CsvOptions {
  locale: ExportLocale;
  /** Words for true/false cells; default by locale. */
  booleanWords?: readonly [yes: string, no: string];
  /** Text (UTF-16 units) gathered before a chunk is encoded and yielded; default 64 KiB. */
  chunkChars?: number;
}

export interface CsvDialect {
  separator: ';' | ',';
  decimalMark: ',' | '.';
}

export const CSV_DIALECT: Record<ExportLocale, CsvDialect> = {
  'pt-PT': { separator: ';', decimalMark: ',' },
  'en-GB': { separator: ',', decimalMark: '.' },
};

export const CSV_MEDIA_TYPE = 'text/csv; charset=utf-8';

/** RFC 4180: a field holding the separator, a quote, CR or LF is quoted, its quotes doubled. */
export function csvField(s: string, separator: string): string {
  const special = separator === ';' ? /[;"\r\n]/ : /[,"\r\n]/;
  return special.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

type Cell = (value: unknown, row: number) => string;

function cellWriter(column: ExportColumn, dialect: CsvDialect, words: readonly [string, string]): Cell {
  const { key } = column;
  const special = dialect.separator === ';' ? /[;"\r\n]/ : /[,"\r\n]/;
  const quote = (s: string) => (special.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
  switch (column.kind) {
    case 'text':
      return (v) => (isEmpty(v) ? '' : quote(neutralise(typeof v === 'string' ? v : String(v))));
    case 'phone':
      return (v) => (isEmpty(v) ? '' : quote(csvPhoneText(typeof v === 'string' ? v : String(v))));
    case 'integer':
      return (v, row) => (isEmpty(v) ? '' : integerText(v, key, row));
    case 'cents':
      return (v, row) => (isEmpty(v) ? '' : centsFixed2(cents(v, key, row), dialect.decimalMark));
    case 'date':
      return (v, row) => (isEmpty(v) ? '' : dateText(v, key, row));
    case 'datetime':
      return (v, row) => (isEmpty(v) ? '' : datetimeText(v, key, row));
    case 'boolean': {
      const yes = quote(words[0]);
      const no = quote(words[1]);
      return (v, row) => (isEmpty(v) ? '' : booleanValue(v, key, row) ? yes : no);
    }
  }
}

/**
 * The CSV file as UTF-8 chunks of about 64 KiB (the BOM opens the first one; the last may be smaller).
 * Lazy: rows are read only as chunks are asked for, so memory stays flat and a slow consumer slows the
 * reader (back-pressure through the async iterator).
 */
export async function* csvChunks(
  columns: readonly ExportColumn[],
  rows: ExportRows,
  options: CsvOptions,
): AsyncGenerator<Uint8Array, void, undefined> {
  assertColumns(columns);
  const dialect = CSV_DIALECT[options.locale];
  if (!dialect) throw new RangeError(`unknown export locale "${String(options.locale)}"`);
  const sep = dialect.separator;
  const words = options.booleanWords ?? BOOLEAN_WORDS[options.locale];
  const cells = columns.map((c) => cellWriter(c, dialect, words));
  const keys = columns.map((c) => c.key);
  const n = columns.length;
  const chunkChars = options.chunkChars ?? 64 * 1024;
  const encoder = new TextEncoder();

  let buf = `\uFEFF${columns.map((c) => csvField(neutralise(c.header), sep)).join(sep)}\r\n`;
  let row = 0;
  const next = rowPuller(rows);
  const sync = Symbol.iterator in rows;
  for (;;) {
    const r = sync ? (next() as IteratorResult<ExportRow>) : await next();
    if (r.done) break;
    const record = r.value;
    row++;
    let line = cells[0]!(record[keys[0]!], row);
    for (let i = 1; i < n; i++) line += sep + cells[i]!(record[keys[i]!], row);
    buf += `${line}\r\n`;
    if (buf.length >= chunkChars) {
      yield encoder.encode(buf);
      buf = '';
    }
  }
  if (buf.length > 0) yield encoder.encode(buf);
}

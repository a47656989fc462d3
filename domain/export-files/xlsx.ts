// XLSX export writer: a minimal Office Open XML workbook with one sheet, streamed through fflate's
// streaming Zip so memory stays flat whatever the row count (docs/decisions/0059).
//
// Parts: [Content_Types].xml, _rels/.rels, xl/workbook.xml, xl/_rels/workbook.xml.rels, xl/styles.xml
// (stored, they are tiny) and xl/worksheets/sheet1.xml (deflated, written row by row). Strings are inline
// (`t="inlineStr"`), so no shared-strings table grows with the rows. Cells:
// - text: neutralised like CSV (neutralise.ts), characters illegal in XML 1.0 dropped first (so they
//   cannot hide a leading `=`), clipped to Excel's 32,767 characters;
// - integer: a number; beyond 15 digits (what Excel keeps) an inline string, so no digit is lost;
// - cents: a number written as the exact decimal of the integer cents (`1250` → `12.5`), style `#,##0.00`;
// - date / datetime: Excel serials (days since 1899-12-30; datetimes as Lisbon wall clock, seconds) with
//   `yyyy-mm-dd` / `yyyy-mm-dd hh:mm:ss` styles; a date Excel cannot show (before 1900-03-01) as ISO text;
// - boolean: a boolean cell (`t="b"`), which Excel shows in the reader's language.
// The header row is bold and frozen; column widths come from the headers and the first rows.
import { type AsyncFlateStreamHandler, Zip, ZipDeflate, type ZipInputFile, ZipPassThrough } from 'fflate';
import { booleanValue, cents, centsShortest, dateDays, instantMs, integerText, isEmpty } from './cells';
import {
  assertColumns,
  type ExportColumn,
  type ExportLocale,
  type ExportRow,
  type ExportRows,
  rowPuller,
} from './columns';
import { isoDateOfDays, lisbonLocalMs } from './lisbon-time';
import { neutralise, PHONE_PATTERN } from './neutralise';
import { clipCellText, dropXmlIllegal, needsPreserve, xmlAttr, xmlText } from './xml-text';

export interface XlsxOptions {
  sheetName: string;
  /** Accepted for symmetry with CSV: XLSX cells are typed, and Excel displays them in the reader's locale. */
  locale: ExportLocale;
  /**
   * How the sheet is deflated. `native` (default where the runtime has it): the web-standard
   * CompressionStream('deflate-raw'), i.e. the platform's zlib, several times faster than JavaScript;
   * `fflate`: fflate's own ZipDeflate at `level` (pure JavaScript, synchronous). See decision 0059.
   */
  deflate?: 'native' | 'fflate';
  /** Deflate level when `deflate` is `fflate` (0–9); default 6. */
  level?: 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9;
  /** Modification time stored in the zip entries; default a fixed date so the same rows give the same bytes. */
  modifiedAt?: Date;
  /** Rows read before the sheet starts, to size the columns (bounded; default 100). */
  sampleRows?: number;
  /** Sheet XML (UTF-16 units) gathered before it is encoded and deflated; default 128 KiB. */
  chunkChars?: number;
}

export const XLSX_MEDIA_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** Rows in one Excel sheet, the header included. */
export const XLSX_MAX_ROWS = 1_048_576;
export const XLSX_MAX_COLUMNS = 16_384;
/** fflate writes no ZIP64: no entry may reach 4 GiB uncompressed. */
const MAX_PART_BYTES = 0xffff_ffff;

export class XlsxLimitError extends RangeError {
  constructor(
    readonly code: 'XLSX_TOO_MANY_ROWS' | 'XLSX_TOO_MANY_COLUMNS' | 'XLSX_TOO_LARGE',
    message: string,
  ) {
    super(message);
    this.name = 'XlsxLimitError';
  }
}

const NS_MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const NS_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const XML_DECL = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

/** Cell styles (indexes into cellXfs in styles.xml). */
export const XLSX_STYLE = { default: 0, money: 1, date: 2, datetime: 3, header: 4 } as const;
export const MONEY_FORMAT = '#,##0.00';
export const DATE_FORMAT = 'yyyy-mm-dd';
export const DATETIME_FORMAT = 'yyyy-mm-dd hh:mm:ss';

const CONTENT_TYPES = `${XML_DECL}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>`;

const ROOT_RELS = `${XML_DECL}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${NS_REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`;

const WORKBOOK_RELS = `${XML_DECL}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${NS_REL}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${NS_REL}/styles" Target="styles.xml"/></Relationships>`;

const xf = (numFmtId: number, fontId = 0) =>
  `<xf numFmtId="${numFmtId}" fontId="${fontId}" fillId="0" borderId="0" xfId="0"${numFmtId ? ' applyNumberFormat="1"' : ''}${fontId ? ' applyFont="1"' : ''}/>`;

const STYLES = `${XML_DECL}<styleSheet xmlns="${NS_MAIN}"><numFmts count="3"><numFmt numFmtId="164" formatCode="${MONEY_FORMAT}"/><numFmt numFmtId="165" formatCode="${DATE_FORMAT}"/><numFmt numFmtId="166" formatCode="${DATETIME_FORMAT}"/></numFmts><fonts count="2"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font><font><b/><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="5">${xf(0)}${xf(164)}${xf(165)}${xf(166)}${xf(0, 1)}</cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>`;

/** Excel's rules for sheet names: 1–31 characters, none of `[]:*?/\`, no apostrophe at either end. */
export function safeSheetName(name: string): string {
  const s = dropXmlIllegal(name)
    .replace(/[[\]:*?/\\]/g, ' ')
    .replace(/^'+|'+$/g, '')
    .trim();
  const clipped = Array.from(s).slice(0, 31).join('').replace(/'+$/, '').trim();
  return clipped === '' || clipped.toLowerCase() === 'history' ? 'Sheet1' : clipped;
}

const workbookXml = (sheetName: string) =>
  `${XML_DECL}<workbook xmlns="${NS_MAIN}" xmlns:r="${NS_REL}"><bookViews><workbookView/></bookViews><sheets><sheet name="${xmlAttr(safeSheetName(sheetName))}" sheetId="1" r:id="rId1"/></sheets></workbook>`;

/** 0 → `A`, 25 → `Z`, 26 → `AA`. */
export function columnLetters(index: number): string {
  let s = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26))
    s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

/** Text of a cell as Excel will hold it: illegal characters dropped, then neutralised, then clipped. */
export function xlsxCellText(s: string): string {
  return clipCellText(neutralise(dropXmlIllegal(s)));
}

const inlineString = (ref: string, text: string, style = '') =>
  `<c r="${ref}"${style} t="inlineStr"><is><t${needsPreserve(text) ? ' xml:space="preserve"' : ''}>${xmlText(text)}</t></is></c>`;

const EXCEL_EPOCH_DAYS = 25_569; // 1970-01-01 as an Excel serial
const FIRST_SERIAL_DAY = -25_508; // 1900-03-01: before it Excel's serials carry the 1900 leap-year bug
const LAST_SERIAL_DAY = 2_932_896; // 9999-12-31
const DAY = 86_400_000;
const MAX_EXACT_INTEGER = 999_999_999_999_999; // 15 digits

type Cell = (value: unknown, ref: string, row: number) => string;

function cellWriter(column: ExportColumn): Cell {
  const { key } = column;
  const s = (style: number) => ` s="${style}"`;
  switch (column.kind) {
    case 'text':
      return (v, ref) => inlineString(ref, xlsxCellText(typeof v === 'string' ? v : String(v)));
    case 'phone':
      // An inline string is never evaluated: a phone number needs no quote (decision 0128).
      return (v, ref) => {
        const text = typeof v === 'string' ? v : String(v);
        return inlineString(ref, PHONE_PATTERN.test(text) ? text : xlsxCellText(text));
      };
    case 'integer':
      return (v, ref, row) => {
        const text = integerText(v, key, row);
        const n = typeof v === 'bigint' ? Number(v) : (v as number);
        return Math.abs(n) <= MAX_EXACT_INTEGER
          ? `<c r="${ref}"><v>${text}</v></c>`
          : inlineString(ref, text);
      };
    case 'cents':
      return (v, ref, row) =>
        `<c r="${ref}"${s(XLSX_STYLE.money)}><v>${centsShortest(cents(v, key, row))}</v></c>`;
    case 'date':
      return (v, ref, row) => {
        const days = dateDays(v, key, row);
        return days < FIRST_SERIAL_DAY || days > LAST_SERIAL_DAY
          ? inlineString(ref, isoDateOfDays(days))
          : `<c r="${ref}"${s(XLSX_STYLE.date)}><v>${days + EXCEL_EPOCH_DAYS}</v></c>`;
      };
    case 'datetime':
      return (v, ref, row) => {
        const local = lisbonLocalMs(instantMs(v, key, row));
        const days = Math.floor(local / DAY);
        if (days < FIRST_SERIAL_DAY || days > LAST_SERIAL_DAY) return inlineString(ref, isoDateOfDays(days));
        const seconds = Math.floor((local - days * DAY) / 1000);
        return `<c r="${ref}"${s(XLSX_STYLE.datetime)}><v>${days + EXCEL_EPOCH_DAYS + seconds / 86_400}</v></c>`;
      };
    case 'boolean':
      return (v, ref, row) => `<c r="${ref}" t="b"><v>${booleanValue(v, key, row) ? 1 : 0}</v></c>`;
  }
}

/** Characters a column needs to show its header and the sampled values (Excel width units ≈ characters). */
function columnWidth(column: ExportColumn, sample: readonly ExportRow[]): number {
  const fixed: Record<ExportColumn['kind'], number> = {
    text: 8,
    phone: 8,
    integer: 8,
    cents: 12,
    date: 11,
    datetime: 20,
    boolean: 7,
  };
  let chars = Math.max(fixed[column.kind], column.header.length + 2); // bold header, filter-arrow room
  if (column.kind === 'text' || column.kind === 'phone' || column.kind === 'integer') {
    for (const r of sample) {
      const v = r[column.key];
      if (!isEmpty(v)) chars = Math.max(chars, String(v).length + 1);
    }
  }
  return Math.min(chars, 60);
}

/** The sheet's XML up to and including the header row; column widths from `sample`'s first rows. */
export function sheetHead(columns: readonly ExportColumn[], sample: readonly ExportRow[]): string {
  const cols = columns
    .map((c, i) => `<col min="${i + 1}" max="${i + 1}" width="${columnWidth(c, sample)}" customWidth="1"/>`)
    .join('');
  const header = columns
    .map((c, i) => inlineString(`${columnLetters(i)}1`, xlsxCellText(c.header), ` s="${XLSX_STYLE.header}"`))
    .join('');
  return `${XML_DECL}<worksheet xmlns="${NS_MAIN}" xmlns:r="${NS_REL}"><sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/><selection pane="bottomLeft" activeCell="A2" sqref="A2"/></sheetView></sheetViews><cols>${cols}</cols><sheetData><row r="1">${header}</row>`;
}

export const SHEET_TAIL = '</sheetData></worksheet>';

/** The workbook's parts other than the sheet, as file name and XML (tiny: stored, not deflated). */
export const xlsxPackageParts = (sheetName: string): readonly (readonly [string, string])[] => [
  ['[Content_Types].xml', CONTENT_TYPES],
  ['_rels/.rels', ROOT_RELS],
  ['xl/workbook.xml', workbookXml(sheetName)],
  ['xl/_rels/workbook.xml.rels', WORKBOOK_RELS],
  ['xl/styles.xml', STYLES],
];

/** The sheet's path in the package. */
export const SHEET_PART = 'xl/worksheets/sheet1.xml';

/** Length of a gzip member header (RFC 1952 §2.3) at the start of `b`, or null while it is incomplete. */
export function gzipHeaderLength(b: Uint8Array): number | null {
  if (b.length < 10) return null;
  if (b[0] !== 0x1f || b[1] !== 0x8b || b[2] !== 8) throw new Error('CompressionStream gave no gzip header');
  const flags = b[3]!;
  let at = 10;
  if (flags & 0x04) {
    if (b.length < at + 2) return null;
    at += 2 + (b[at]! | (b[at + 1]! << 8));
  }
  for (const flag of [0x08, 0x10]) {
    if (flags & flag) {
      while (at < b.length && b[at] !== 0) at++;
      if (at >= b.length) return null;
      at++;
    }
  }
  if (flags & 0x02) at += 2;
  return b.length >= at ? at : null;
}

const concat = (a: Uint8Array<ArrayBuffer>, b: Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer> => {
  if (a.length === 0) return b;
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
};

/**
 * A zip entry deflated by the platform's zlib through the web-standard CompressionStream (Node ≥ 18,
 * every current browser). It asks for `gzip` rather than `deflate-raw` because a gzip member is the raw
 * deflate data between a 10-byte header and a trailer holding the CRC-32 and size: the CRC then comes
 * from zlib instead of being computed again in JavaScript (~10% of the writer's CPU). Header and trailer
 * are cut off; the zip gets the deflate data, then CRC and size in its data descriptor.
 * Up to IN_FLIGHT pushes wait in the stream, so the next rows are written while zlib (a worker thread in
 * Node) deflates the previous ones. `ready` settles when the writer may push again (back-pressure), or,
 * after the final push, when every compressed byte has reached the zip.
 */
class NativeDeflate implements ZipInputFile {
  static readonly IN_FLIGHT = 4;
  readonly compression = 8;
  crc = 0;
  size = 0;
  mtime?: Date;
  ondata?: AsyncFlateStreamHandler;
  ready: Promise<unknown> = Promise.resolve();
  private readonly writer: WritableStreamDefaultWriter<BufferSource>;
  private readonly pumped: Promise<void>;
  private readonly inFlight: Promise<void>[] = [];

  constructor(readonly filename: string) {
    const stream = new CompressionStream('gzip');
    this.writer = stream.writable.getWriter();
    const reader = stream.readable.getReader();
    this.pumped = (async () => {
      let head: Uint8Array<ArrayBuffer> | null = new Uint8Array(0); // until the gzip header is skipped
      let tail = new Uint8Array(0); // the last 8 bytes seen: maybe the trailer
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        let bytes = value as Uint8Array<ArrayBuffer>;
        if (head) {
          head = concat(head, bytes);
          const skip = gzipHeaderLength(head);
          if (skip === null) continue;
          bytes = head.subarray(skip);
          head = null;
        }
        if (bytes.length >= 8) {
          // Everything but the last 8 bytes is deflate data; the last 8 may be the trailer.
          if (tail.length > 0) this.ondata!(null, tail, false);
          if (bytes.length > 8) this.ondata!(null, bytes.subarray(0, bytes.length - 8), false);
          tail = bytes.slice(bytes.length - 8);
        } else {
          const all = concat(tail, bytes);
          if (all.length > 8) this.ondata!(null, all.slice(0, all.length - 8), false);
          tail = all.slice(Math.max(0, all.length - 8));
        }
      }
      if (tail.length !== 8) throw new Error('CompressionStream gave no gzip trailer');
      const le32 = (i: number) =>
        (tail[i]! | (tail[i + 1]! << 8) | (tail[i + 2]! << 16) | (tail[i + 3]! << 24)) >>> 0;
      if (le32(4) !== this.size % 2 ** 32) throw new Error('gzip trailer size does not match the input');
      this.crc = le32(0);
      this.ondata!(null, new Uint8Array(0), true);
    })();
    this.pumped.catch(() => {}); // surfaced through `ready`
  }

  push(chunk: Uint8Array<ArrayBuffer>, final = false): void {
    this.size += chunk.length;
    const written = this.writer.write(chunk);
    written.catch(() => {}); // surfaced through `ready`
    this.inFlight.push(written);
    if (final) {
      this.ready = Promise.all(this.inFlight.splice(0))
        .then(() => this.writer.close())
        .then(() => this.pumped);
    } else {
      this.ready =
        this.inFlight.length > NativeDeflate.IN_FLIGHT ? this.inFlight.shift()! : Promise.resolve();
    }
  }
}

const nativeDeflate = () => typeof CompressionStream === 'function';

/**
 * The .xlsx file as chunks of bytes, produced as they are asked for (zip output of each deflated block of
 * the sheet). Throws XlsxLimitError past Excel's 1,048,575 data rows or 16,384 columns, or when the sheet
 * would reach 4 GiB (no ZIP64); the export job decides what to tell the user.
 */
export async function* xlsxChunks(
  columns: readonly ExportColumn[],
  rows: ExportRows,
  options: XlsxOptions,
): AsyncGenerator<Uint8Array, void, undefined> {
  assertColumns(columns);
  if (columns.length > XLSX_MAX_COLUMNS)
    throw new XlsxLimitError(
      'XLSX_TOO_MANY_COLUMNS',
      `an Excel sheet holds at most ${XLSX_MAX_COLUMNS} columns`,
    );
  const level = options.level ?? 6;
  const mtime = options.modifiedAt ?? new Date(2000, 0, 1);
  const chunkChars = options.chunkChars ?? 128 * 1024;
  const encoder = new TextEncoder();

  let out: Uint8Array[] = [];
  let failure: Error | null = null;
  const zip = new Zip((err, data) => {
    if (err) failure = err;
    else out.push(data);
  });
  const drain = () => {
    if (failure) throw failure;
    const ready = out;
    out = [];
    return ready;
  };

  for (const [name, xml] of xlsxPackageParts(options.sheetName)) {
    const part = new ZipPassThrough(name);
    part.mtime = mtime;
    zip.add(part);
    part.push(encoder.encode(xml), true);
  }
  yield* drain();

  const native = (options.deflate ?? (nativeDeflate() ? 'native' : 'fflate')) === 'native';
  const sheet = native ? new NativeDeflate(SHEET_PART) : new ZipDeflate(SHEET_PART, { level });
  sheet.mtime = mtime;
  zip.add(sheet);
  let sheetBytes = 0;
  // fflate copies what it is pushed before push returns, so its path encodes into one reused buffer (no
  // ~150 KB ArrayBuffer per chunk left for the GC); the native stream keeps chunks until zlib has read them.
  let scratch = new Uint8Array(0);
  const encode = (xml: string): Uint8Array<ArrayBuffer> => {
    if (native) return encoder.encode(xml);
    if (scratch.length < xml.length * 3) scratch = new Uint8Array(xml.length * 3);
    return scratch.subarray(0, encoder.encodeInto(xml, scratch).written);
  };
  const push = async (xml: string, final: boolean) => {
    const bytes = encode(xml);
    sheetBytes += bytes.length;
    if (sheetBytes >= MAX_PART_BYTES)
      throw new XlsxLimitError(
        'XLSX_TOO_LARGE',
        'the sheet would reach 4 GiB, more than a ZIP without ZIP64 holds',
      );
    sheet.push(bytes, final);
    if (sheet instanceof NativeDeflate) await sheet.ready;
  };

  const next = rowPuller(rows);
  const sync = Symbol.iterator in rows;
  const sample: ExportRow[] = [];
  const sampleSize = options.sampleRows ?? 100;
  let done = false;
  while (sample.length < sampleSize) {
    const r = sync ? (next() as IteratorResult<ExportRow>) : await next();
    if (r.done) {
      done = true;
      break;
    }
    sample.push(r.value);
  }

  const cells = columns.map(cellWriter);
  const keys = columns.map((c) => c.key);
  const letters = columns.map((_, i) => columnLetters(i));
  const n = columns.length;
  let buf = sheetHead(columns, sample);
  let row = 0;
  const writeRow = (record: ExportRow) => {
    row++;
    const r = row + 1; // the header is row 1
    if (r > XLSX_MAX_ROWS)
      throw new XlsxLimitError(
        'XLSX_TOO_MANY_ROWS',
        `an Excel sheet holds at most ${XLSX_MAX_ROWS - 1} data rows`,
      );
    let xml = `<row r="${r}">`;
    for (let i = 0; i < n; i++) {
      const v = record[keys[i]!];
      if (!isEmpty(v)) xml += cells[i]!(v, letters[i]! + r, row);
    }
    buf += `${xml}</row>`;
  };

  for (const record of sample) writeRow(record);
  sample.length = 0;
  while (!done) {
    if (buf.length >= chunkChars) {
      await push(buf, false);
      buf = '';
      yield* drain();
    }
    const r = sync ? (next() as IteratorResult<ExportRow>) : await next();
    if (r.done) break;
    writeRow(r.value);
  }
  await push(buf + SHEET_TAIL, true);
  zip.end();
  yield* drain();
}

import { columnLetters, PHONE_PATTERN_SQL, XLSX_STYLE } from '../../domain/export-files';
import type { KeysetPosition, KeysetQuery } from '../db/list';
import { batchClauses } from './copy-batch';
import type { SqlCell } from './csv-sql';

/**
 * The sheet's rows of an XLSX export built by PostgreSQL (docs/decisions/0105): each row of a keyset
 * batch is its finished `<row>` element, exactly as the domain's `xlsxChunks` writes it — cell
 * references, inline strings (no shared-strings table), the styles of money, dates and instants.
 * Node then only deflates the bytes. Cell by cell, the rules of domain/export-files/xlsx.ts:
 * - text: characters XML forbids dropped, neutralised (a leading `=`, `+`, `-`, `@`, tab or CR gets a
 *   `'`), clipped to Excel's 32,767 UTF-16 units, escaped (`&`, `<`, `>`, CR, a literal `_xHHHH_`),
 *   `xml:space="preserve"` when it starts or ends with white space. Most rows need none of that but the
 *   neutralising: one test over the row's text cells sends the others through `export_xlsx_text`
 *   (migration 0027), which does all of it;
 * - integer: a number up to 15 digits, an inline string beyond (no digit lost);
 * - cents: the exact shortest decimal of the euros (`1250` → `12.5`), money style;
 * - date and datetime: Excel serials (days since 1899-12-30; instants as the Europe/Lisbon wall clock
 *   to the second), an ISO date as text outside what Excel can show;
 * - boolean: `t="b"`. NULL: no cell.
 * The equivalence with `xlsxChunks` is what tests/api/exports-xlsx-sql.test.ts checks on awkward values.
 */

const EXCEL_EPOCH_DAYS = 25_569;
const FIRST_SERIAL_DAY = -25_508;
const LAST_SERIAL_DAY = 2_932_896;
const MAX_EXACT_INTEGER = '999999999999999';

/**
 * Anything in a row's text cells (joined by `|`, with one at either end) that needs more than the
 * neutralising: XML's specials and forbidden characters, what may be Excel's `_xHHHH_`, white space at
 * a cell's start or end. A `|` or `_x` inside a value may send a row down the careful path for nothing;
 * never the reverse. One character class and plain alternatives, no anchors: PostgreSQL's regex engine
 * checked the earlier anchored form at ~3 times the CPU.
 */
const CAREFUL = String.raw`E'[&<>\r\x01-\x08\x0b\x0c\x0e-\x1f\uFFFE\uFFFF]|_x|[|][\t\n ]|[\t\n ][|]'`;
/** Text cells this long (in bytes, joined) may exceed Excel's 32,767 UTF-16 units. */
const SAFE_LENGTH = 16_383;

/** Each cell's value in the inner select, as the outer one reads it. */
function innerValue(cell: SqlCell): string {
  const v = `(${cell.sql})`;
  switch (cell.kind) {
    case 'text':
    case 'phone':
      return `${v}::text`;
    case 'datetime':
      return `date_trunc('second', ${v} AT TIME ZONE 'Europe/Lisbon')`;
    case 'date':
      return `${v}::date`;
    default:
      return v;
  }
}

/**
 * A cell's XML from its value `v` (a column of the inner select) in row `t.r`, NULL when the value is
 * (the row skips it). Built with `||`, which is NULL when any operand is: `concat` looks up every
 * argument's output function on every call.
 */
function cellXml(cell: SqlCell, v: string, letter: string, careful: boolean): string {
  const open = (attributes: string) => `'<c r="${letter}' || t.r || '"${attributes}>`;
  const inline = (text: string) => `${open(' t="inlineStr"')}<is><t>' || ${text} || '</t></is></c>'`;
  const value = (attributes: string, number: string) => `${open(attributes)}<v>' || ${number} || '</v></c>'`;
  const serial = (days: string, number: string, style: number) =>
    `CASE WHEN ${days} BETWEEN ${FIRST_SERIAL_DAY} AND ${LAST_SERIAL_DAY} THEN ${value(` s="${style}"`, number)}
      ELSE ${inline(`${v}::date::text`)} END`;
  switch (cell.kind) {
    case 'text':
      return careful
        ? `${open(' t="inlineStr"')}<is>' || export_xlsx_text(${v}) || '</is></c>'`
        : inline(`CASE WHEN ascii(${v}) IN (61, 43, 45, 64) THEN '''' || ${v} ELSE ${v} END`);
    case 'phone':
      // A phone number as it is (an inline string is never evaluated, decision 0128); else as text.
      return `CASE WHEN ${v} ~ ${PHONE_PATTERN_SQL} THEN ${inline(v)}
        ELSE ${open(' t="inlineStr"')}<is>' || export_xlsx_text(${v}) || '</is></c>' END`;
    case 'integer':
      return `CASE WHEN abs(${v}) <= ${MAX_EXACT_INTEGER} THEN ${value('', `${v}::text`)}
        ELSE ${inline(`${v}::text`)} END`;
    case 'cents':
      return value(` s="${XLSX_STYLE.money}"`, `trim_scale(${v}::numeric / 100)::text`);
    case 'date': {
      const days = `(${v} - DATE '1970-01-01')`;
      return serial(days, `(${days} + ${EXCEL_EPOCH_DAYS})::text`, XLSX_STYLE.date);
    }
    case 'datetime': {
      const days = `(${v}::date - DATE '1970-01-01')`;
      // As the domain computes it in doubles: whole days, plus the seconds of the day / 86,400.
      const number = `((${days} + ${EXCEL_EPOCH_DAYS})::float8 + date_part('epoch', ${v}::time) / 86400)::text`;
      return serial(days, number, XLSX_STYLE.datetime);
    }
    case 'boolean':
      return value(' t="b"', `CASE ${v} WHEN true THEN '1' WHEN false THEN '0' END`);
  }
}

/** The row's cells joined (`array_to_string` skips the NULL ones: empty cells are not written). */
function rowXml(cells: readonly SqlCell[], careful: boolean): string {
  const pieces = cells.map((cell, i) => cellXml(cell, `t.c${i}`, columnLetters(i), careful));
  return `'<row r="' || t.r || '">' || array_to_string(ARRAY[${pieces.join(', ')}], '') || '</row>'`;
}

/**
 * One batch's select for `COPY (…) TO STDOUT (FORMAT binary)`, values inlined (COPY takes no
 * parameters): each row's `<row>` element, then its sort key and id as text. `firstRow` is the sheet's
 * row number of the batch's first row (the header is row 1).
 */
export function xlsxBatchSelect(
  query: Omit<KeysetQuery, 'select'>,
  cells: readonly SqlCell[],
  position: KeysetPosition | null,
  count: number,
  firstRow: number,
): string {
  const { rest, order, inline } = batchClauses(query, position, count);
  const texts = cells.flatMap((c) => (c.kind === 'text' ? [innerValue(c)] : []));
  // The row's text cells joined once, in the inner select, for the test of the careful path.
  const joined = texts.length === 0 ? `''` : `'|' || concat_ws('|', ${texts.join(', ')}) || '|'`;
  const inner = `SELECT ${cells.map((c, i) => `${innerValue(c)} AS c${i}`).join(', ')},
      (${query.sort.sql})::text AS k, (${query.id})::text AS i,
      (row_number() OVER (ORDER BY ${order}) + ${firstRow - 1})::text AS r, ${joined} AS texts
    ${rest}`;
  const careful = `(octet_length(t.texts) > ${SAFE_LENGTH} OR t.texts ~ ${CAREFUL})`;
  return inline(`SELECT CASE WHEN ${careful} THEN ${rowXml(cells, true)} ELSE ${rowXml(cells, false)} END,
      t.k, t.i FROM (${inner}) t`);
}

/** What an XLSX export reads: its keyset and its cells. */
export interface XlsxCopyQuery {
  keyset: Omit<KeysetQuery, 'select'>;
  cells: readonly SqlCell[];
}

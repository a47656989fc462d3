import {
  BOOLEAN_WORDS,
  type ColumnKind,
  CSV_DIALECT,
  csvField,
  type ExportLocale,
  neutralise,
} from '../../domain/export-files';

/**
 * A CSV line built by PostgreSQL (docs/decisions/0083): the same text the domain's `csvChunks` writes
 * for the same values, cell by cell — text neutralised then quoted (RFC 4180), money from integer
 * cents with two decimals and the locale's mark, instants as the Europe/Lisbon wall clock to the
 * second, dates `YYYY-MM-DD`, booleans as the locale's words, NULL as an empty cell. The runner then
 * only joins each batch's lines: no row object is parsed or formatted in JavaScript. The equivalence
 * with `csvChunks` is what tests/api/exports-csv-sql.test.ts checks, on awkward values.
 */

/** A column's value as SQL (evaluated more than once: a column or a cheap expression) and its kind. */
export interface SqlCell {
  sql: string;
  kind: ColumnKind;
}

/** A formula's first characters (neutralise.ts): `=`, `+`, `-`, `@`, tab, CR, as code points. */
const FORMULA_CODES = '61, 43, 45, 64, 9, 13';

/** SQL text of a string literal (standard conforming: only the quote is doubled). */
const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

const neutralised = (value: string) =>
  `CASE WHEN ascii(${value}) IN (${FORMULA_CODES}) THEN '''' || ${value} ELSE ${value} END`;

/** A text cell neutralised, then quoted when it holds the separator, a quote, CR or LF. */
function quotedText(value: string, separator: ';' | ','): string {
  const quoting = [separator, '"', '\r', '\n'].map((c) => `strpos(${value}, ${literal(c)}) > 0`).join(' OR ');
  return `coalesce(CASE WHEN ${quoting} THEN '"' || replace(${neutralised(value)}, '"', '""') || '"' ELSE ${neutralised(value)} END, '')`;
}

function centsCell(value: string, decimalMark: string): string {
  return `coalesce(CASE WHEN ${value} < 0 THEN '-' ELSE '' END || (abs(${value}) / 100)::text || '${decimalMark}'
    || lpad((abs(${value}) % 100)::text, 2, '0'), '')`;
}

/** `quoting`: whether text cells may need quoting (else they are only neutralised). */
function csvCellSql(cell: SqlCell, locale: ExportLocale, quoting: boolean): string {
  const { separator, decimalMark } = CSV_DIALECT[locale];
  const [yes, no] = BOOLEAN_WORDS[locale];
  const v = `(${cell.sql})`;
  switch (cell.kind) {
    case 'text':
      return quoting ? quotedText(`${v}::text`, separator) : `coalesce(${neutralised(`${v}::text`)}, '')`;
    case 'integer':
      return `coalesce(${v}::text, '')`;
    case 'cents':
      return centsCell(v, decimalMark);
    case 'date':
      return `coalesce(to_char(${v}::date, 'YYYY-MM-DD'), '')`;
    case 'datetime':
      return `coalesce(to_char(${v} AT TIME ZONE 'Europe/Lisbon', 'YYYY-MM-DD HH24:MI:SS'), '')`;
    case 'boolean':
      return `CASE ${v} WHEN true THEN ${literal(csvField(yes, separator))} WHEN false THEN ${literal(csvField(no, separator))} ELSE '' END`;
  }
}

/**
 * The SQL of one CSV line (without its CRLF) from the row's cells, in column order. Most rows have no
 * text cell to quote, so the row's text cells are tested once, concatenated (one regex per row instead
 * of four tests per cell), and only a row that matches is quoted cell by cell. Neutralising a cell
 * adds a `'`, which needs no quoting, so testing the cells as they are is enough.
 */
export function csvLineSql(cells: readonly SqlCell[], locale: ExportLocale): string {
  const { separator } = CSV_DIALECT[locale];
  const line = (quoting: boolean) =>
    `concat_ws('${separator}', ${cells.map((c) => csvCellSql(c, locale, quoting)).join(', ')})`;
  const texts = cells.filter((c) => c.kind === 'text').map((c) => `(${c.sql})::text`);
  if (texts.length === 0) return line(false);
  return `CASE WHEN concat(${texts.join(', ')}) ~ '[${separator}"\r\n]' THEN ${line(true)} ELSE ${line(false)} END`;
}

/** The header line and the BOM, as `csvChunks` writes them. */
export function csvHead(headers: readonly string[], locale: ExportLocale): string {
  const { separator } = CSV_DIALECT[locale];
  return `\uFEFF${headers.map((h) => csvField(neutralise(h), separator)).join(separator)}\r\n`;
}

import {
  BOOLEAN_WORDS,
  type ColumnKind,
  CSV_DIALECT,
  csvField,
  type ExportLocale,
  neutralise,
  PHONE_PATTERN_SQL,
} from '../../domain/export-files';

/**
 * The cells of a CSV export as PostgreSQL's COPY writes them (docs/decisions/0090): COPY quotes a value
 * exactly as `csvField` does, so a text cell is read as it is stored and COPY quotes it in C; the
 * other kinds are formatted here as `csvChunks` formats them — money from integer cents with two
 * decimals and the locale's mark, instants as the Europe/Lisbon wall clock to the second (the ISO text
 * of a `timestamp`: the reading transaction sets `DateStyle` to ISO), dates `YYYY-MM-DD`, booleans as
 * the locale's words. NULL stays NULL (COPY writes an empty cell). What COPY does not do — neutralising
 * formulas, the empty string's `""`, CRLF — `CopyCsvReader` does on the bytes. The equivalence with
 * `csvChunks` is what tests/api/exports-csv-sql.test.ts checks, on awkward values.
 */

/** A column's value as SQL and its kind. */
export interface SqlCell {
  sql: string;
  kind: ColumnKind;
}

/** SQL text of a string literal (standard conforming: only the quote is doubled). */
const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

function centsCell(value: string, decimalMark: string): string {
  return `CASE WHEN ${value} < 0 THEN '-' ELSE '' END || (abs(${value}) / 100)::text || '${decimalMark}'
    || lpad((abs(${value}) % 100)::text, 2, '0')`;
}

function copyCellSql(cell: SqlCell, locale: ExportLocale): string {
  const v = `(${cell.sql})`;
  switch (cell.kind) {
    case 'text':
    case 'integer':
      return `${v}::text`;
    case 'phone': {
      // Neutralised here, not by `CopyCsvReader` (it is not a text cell): `csvPhoneText`'s rule. An
      // empty number is an empty cell, as `csvChunks` writes it (COPY would quote it).
      const v = `nullif((${cell.sql})::text, '')`;
      return `CASE WHEN ${v} ~ ${PHONE_PATTERN_SQL} THEN CASE WHEN left(${v}, 1) = '+' THEN E'\\t' ELSE '' END || ${v}
        WHEN ascii(${v}) IN (61, 43, 45, 64, 9, 13) THEN '''' || ${v} ELSE ${v} END`;
    }
    case 'cents':
      return centsCell(v, CSV_DIALECT[locale].decimalMark);
    case 'date':
      return `${v}::date::text`;
    case 'datetime':
      // date_trunc, not a cast to timestamp(0): the cast rounds, the wall clock is truncated.
      return `date_trunc('second', ${v} AT TIME ZONE 'Europe/Lisbon')::text`;
    case 'boolean': {
      const [yes, no] = BOOLEAN_WORDS[locale];
      return `CASE ${v} WHEN true THEN ${literal(yes)} WHEN false THEN ${literal(no)} END`;
    }
  }
}

/** The select list of the cells, in column order, for `COPY (…) TO STDOUT` in `csvCopyOptions`. */
export const csvCopyCells = (cells: readonly SqlCell[], locale: ExportLocale): string =>
  cells.map((c) => copyCellSql(c, locale)).join(', ');

/** COPY's options for the locale's CSV: its separator, quoting as RFC 4180 (COPY's CSV default). */
export const csvCopyOptions = (locale: ExportLocale): string =>
  `FORMAT csv, DELIMITER ${literal(CSV_DIALECT[locale].separator)}`;

/** Which cells are text (the ones `CopyCsvReader` neutralises). */
export const textCells = (cells: readonly SqlCell[]): boolean[] => cells.map((c) => c.kind === 'text');

/** The header line and the BOM, as `csvChunks` writes them. */
export function csvHead(headers: readonly string[], locale: ExportLocale): string {
  const { separator } = CSV_DIALECT[locale];
  return `\uFEFF${headers.map((h) => csvField(neutralise(h), separator)).join(separator)}\r\n`;
}

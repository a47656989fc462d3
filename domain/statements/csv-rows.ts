// CSV text → rows of cells, with the source line each row starts on. The tokenising is papaparse's
// string parser (RFC 4180 quoting: quoted fields may hold the separator, doubled quotes and line
// breaks). Pure: no Node APIs, no DOM; the same code runs in the console's Web Worker and on the
// server (decision 0057).
import Papa from 'papaparse';

export interface CsvRows {
  /** Cells of each row, unquoted (`""` → `"`), line breaks inside quoted cells as `\n`. */
  rows: string[][];
  /** 1-based source line where each row starts; `\r\n`, `\r` and `\n` each end one line. */
  lines: number[];
  /**
   * Lines where a quoted cell opens and never closes. That row is dropped and reading resumes on the
   * next line, so one stray quote costs one row, not the rest of the file.
   */
  unterminated: number[];
  /** After too many unterminated quotes, the line where reading stopped (null: read to the end). */
  stoppedAt: number | null;
}

/** After this many unterminated quotes the rest of the file is not read again (each retry rereads it). */
const MAX_RETRIES = 100;

function newlines(row: string[]): number {
  let n = 0;
  for (const cell of row) {
    for (let at = cell.indexOf('\n'); at >= 0; at = cell.indexOf('\n', at + 1)) n++;
  }
  return n;
}

/** Characters handed to papaparse at a time: rows are passed on per slice, not held all at once. */
const CHUNK = 1 << 18;

export interface CsvReadSummary {
  /** Lines where a quoted cell opens and never closes (that row is dropped, reading resumes after it). */
  unterminated: number[];
  /** After too many unterminated quotes, the line where reading stopped (null: read to the end). */
  stoppedAt: number | null;
}

/** Offset in `source` of line `target`, walking from `offset` (which starts line `line`); -1 past the end. */
function lineOffset(source: string, offset: number, line: number, target: number): number {
  let at = offset;
  for (let l = line; l < target; l++) {
    const next = source.indexOf('\n', at);
    if (next < 0) return -1;
    at = next + 1;
  }
  return at;
}

/**
 * Reads `text` with one delimiter and calls `visit` with each row's cells and the source line it
 * starts on, in order; never throws. A leading BOM is dropped. The text goes to papaparse in slices
 * of about `chunk` characters ending at a line break, so only one slice's rows are held at a time;
 * a row whose quoted cell runs past its slice is read again with the next one.
 */
export function readCsvRows(
  text: string,
  delimiter: string,
  visit: (cells: string[], line: number) => void,
  chunk = CHUNK,
): CsvReadSummary {
  const summary: CsvReadSummary = { unterminated: [], stoppedAt: null };
  // One line-break convention for papaparse, which takes a single one; line numbers are unchanged.
  const source = text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text;
  let offset = 0; // where the next slice starts in `source`
  let line = 1; // the line at `offset`
  let size = chunk;
  while (offset < source.length) {
    const cut = offset + size >= source.length ? -1 : source.indexOf('\n', offset + size);
    const end = cut < 0 ? source.length : cut + 1;
    const last = end === source.length;
    const part = source.slice(offset, end);
    const parsed = Papa.parse<string[]>(part, {
      delimiter,
      newline: '\n',
      quoteChar: '"',
      escapeChar: '"',
      header: false,
      dynamicTyping: false,
      skipEmptyLines: false,
      comments: false,
    });
    const open = parsed.errors.some((e) => e.code === 'MissingQuotes');
    const quoted = part.includes('"');
    // Drop the open row, or (inside the file) the empty remainder after the slice's last line break.
    const final = parsed.data[parsed.data.length - 1];
    const remainder = !last && final?.length === 1 && final[0] === '';
    const complete = open || remainder ? parsed.data.length - 1 : parsed.data.length;
    let rowLine = line;
    for (let k = 0; k < complete; k++) {
      const row = parsed.data[k]!;
      visit(row, rowLine);
      rowLine += 1 + (quoted ? newlines(row) : 0);
    }
    if (!open) {
      offset = end;
      line = rowLine;
      size = chunk;
      continue;
    }
    if (!last) {
      // The open row may close further on: read again from its start, with a longer slice if it
      // alone filled this one.
      const start = lineOffset(source, offset, line, rowLine);
      size = start === offset ? size * 2 : chunk;
      offset = start;
      line = rowLine;
      continue;
    }
    // A quote that never closes: report its line, resume on the next line.
    summary.unterminated.push(rowLine);
    const next = lineOffset(source, offset, line, rowLine + 1);
    if (next < 0 || next >= source.length) break;
    if (summary.unterminated.length >= MAX_RETRIES) {
      summary.stoppedAt = rowLine + 1;
      break;
    }
    offset = next;
    line = rowLine + 1;
    size = chunk;
  }
  return summary;
}

/** All rows at once (for samples and tests; statements are read row by row with `readCsvRows`). */
export function csvRows(text: string, delimiter: string): CsvRows {
  const rows: string[][] = [];
  const lines: number[] = [];
  const summary = readCsvRows(text, delimiter, (cells, line) => {
    rows.push(cells);
    lines.push(line);
  });
  return { rows, lines, ...summary };
}

/** The first `count` lines of `text` (all of it when shorter), to sample a file cheaply. */
export function headLines(text: string, count: number): string {
  let at = 0;
  for (let k = 0; k < count; k++) {
    const next = text.slice(at).search(/\r\n|\n|\r/);
    if (next < 0) return text;
    at += next + (text.startsWith('\r\n', at + next) ? 2 : 1);
  }
  return text.slice(0, at);
}

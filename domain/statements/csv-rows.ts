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

/** Reads `text` with one delimiter; never throws. A leading BOM is dropped. */
export function csvRows(text: string, delimiter: string): CsvRows {
  const out: CsvRows = { rows: [], lines: [], unterminated: [], stoppedAt: null };
  // One line-break convention for papaparse, which takes a single one; line numbers are unchanged.
  const source = text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text;
  let offset = 0; // where the current pass starts in `source`
  let line = 1; // the line at `offset`
  for (let pass = 0; ; pass++) {
    const part = offset === 0 ? source : source.slice(offset);
    if (part === '') break;
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
    const quoted = part.includes('"');
    const open = parsed.errors.some((e) => e.code === 'MissingQuotes');
    const complete = open ? parsed.data.length - 1 : parsed.data.length;
    let rowLine = line;
    for (let k = 0; k < complete; k++) {
      const row = parsed.data[k]!;
      out.rows.push(row);
      out.lines.push(rowLine);
      rowLine += 1 + (quoted ? newlines(row) : 0);
    }
    if (!open) break;
    // The last row opened a quote that never closes: report its line, resume on the next line.
    out.unterminated.push(rowLine);
    let at = offset;
    for (let l = line; l <= rowLine && at >= 0; l++) {
      const next = source.indexOf('\n', at);
      at = next < 0 ? -1 : next + 1;
    }
    if (at < 0 || at >= source.length) break;
    if (pass + 1 >= MAX_RETRIES) {
      out.stoppedAt = rowLine + 1;
      break;
    }
    offset = at;
    line = rowLine + 1;
  }
  return out;
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

// PostgreSQL's `COPY … TO STDOUT (FORMAT csv)` output turned into the export's CSV, on bytes
// (docs/decisions/0090). COPY already quotes exactly as `csvField` does (a value holding the separator,
// a quote, CR or LF is quoted, its quotes doubled) and writes NULL as an empty cell; what it does not
// do, this pass does without decoding a single cell:
//   - text cells are neutralised (neutralise.ts): a leading `=`, `+`, `-`, `@`, tab or CR gets a `'`,
//     inside the quotes when the cell is quoted (COPY always quotes a value starting with CR);
//   - an empty string, which COPY writes as `""` to tell it from NULL, becomes an empty cell;
//   - lines end in CRLF, not LF;
//   - the last two cells of each line (the keyset position: sort key and id) are dropped, and the last
//     line's are kept for the next batch.
// The result is byte for byte what `csvChunks` writes for the same values (tests/api/exports-csv-sql.test.ts).

const QUOTE = 0x22;
const APOSTROPHE = 0x27;
const LF = 0x0a;
const CR = 0x0d;
/** The keyset position's cells after the export's: sort key and id. */
const KEY_CELLS = 2;

const isFormulaStart = (c: number) =>
  c === 0x3d || c === 0x2b || c === 0x2d || c === 0x40 || c === 0x09 || c === 0x0d;

export interface CopiedCsv {
  /** The lines as the export writes them, CRLF-terminated. */
  bytes: Uint8Array;
  rows: number;
  /** The last line's key cells (sort key, id) as text; empty when no line was read. */
  lastKey: string[];
}

/**
 * Reads COPY's CSV output for one batch, piece by piece (a piece may end anywhere: inside a cell, a
 * quoted value or a line), and collects the export's bytes. `textCells[i]` says whether the export's
 * i-th cell is a text cell (the only ones neutralised: money and dates are typed values); each line
 * has two cells more, the key.
 */
export class CopyCsvReader {
  private out: Uint8Array;
  /** The buffer of the batch before the last one taken: free again once that batch is written. */
  private spare: Uint8Array;
  private length = 0;
  private rows = 0;
  /** Cell index within the line. */
  private cell = 0;
  /** Whether the current cell has begun (its first byte, perhaps an opening quote, was read). */
  private started = false;
  /** Bytes of the current quoted cell's value read so far (an escaped quote counts once). */
  private content = 0;
  private quoted = false;
  /** Inside a quoted cell, the previous byte was a quote: an escaped one or the closing one. */
  private quoteSeen = false;
  /** Where the current line's key cells start in `out` (at the separator before them). */
  private keyStart = 0;
  /** The last line's key cells as COPY wrote them (`key;id`, perhaps quoted). */
  private lastKey: Uint8Array = new Uint8Array(0);
  private readonly separator: number;
  private readonly cells: number;

  constructor(
    private readonly textCells: readonly boolean[],
    separator: ';' | ',',
    capacity = 1 << 20,
  ) {
    this.separator = separator.charCodeAt(0);
    this.cells = textCells.length;
    this.out = new Uint8Array(capacity);
    this.spare = new Uint8Array(capacity);
  }

  /** Room for `n` more bytes. */
  private reserve(n: number): void {
    if (this.length + n <= this.out.length) return;
    let size = this.out.length * 2;
    while (size < this.length + n) size *= 2;
    const grown = new Uint8Array(size);
    grown.set(this.out.subarray(0, this.length));
    this.out = grown;
  }

  push(chunk: Uint8Array): void {
    // A cell's `'` and a line's CR are at most one byte more per input byte.
    this.reserve(chunk.length * 2);
    const sep = this.separator;
    const out = this.out;
    const n = chunk.length;
    let i = 0;
    while (i < n) {
      // The common case, inlined: the rest of an unquoted cell (COPY writes no quote inside one),
      // copied up to the separator or the line's end.
      if (!this.quoted && (this.started || chunk[i] !== QUOTE)) {
        let length = this.length;
        let c = chunk[i]!;
        if (!this.started) {
          this.started = true;
          if (isFormulaStart(c) && this.textCells[this.cell] === true) out[length++] = APOSTROPHE;
        }
        while (c !== sep && c !== LF) {
          out[length++] = c;
          if (++i === n) break;
          c = chunk[i]!;
        }
        this.length = length;
        if (i === n) break;
      }
      this.step(chunk[i]!);
      i++;
    }
  }

  /** One byte at a quote, a separator or a line's end. */
  private step(c: number): void {
    if (this.quoted) {
      if (!this.quoteSeen) {
        if (c === QUOTE) this.quoteSeen = true;
        else this.value(c);
        return;
      }
      this.quoteSeen = false;
      if (c === QUOTE) {
        this.value(c);
        this.out[this.length++] = c; // an escaped quote stays escaped
        return;
      }
      // The previous quote closed the cell; `c` ends it. `""` is COPY's empty string: an empty cell.
      this.quoted = false;
      if (this.content === 0) this.length--;
      else this.out[this.length++] = QUOTE;
    }
    if (c === this.separator) {
      this.cell++;
      if (this.cell === this.cells) this.keyStart = this.length;
      this.out[this.length++] = c;
      this.started = false;
    } else if (c === LF) {
      this.lastKey = this.out.slice(this.keyStart + 1, this.length);
      this.length = this.keyStart;
      this.out[this.length++] = CR;
      this.out[this.length++] = LF;
      this.rows++;
      this.cell = 0;
      this.started = false;
    } else if (!this.started && c === QUOTE) {
      this.started = true;
      this.quoted = true;
      this.content = 0;
      this.out[this.length++] = QUOTE;
    } else {
      this.started = true;
      this.value(c);
    }
  }

  /** A byte of a quoted cell's value (neutralised at its start when the cell is text). */
  private value(c: number): void {
    if (this.content === 0 && isFormulaStart(c) && this.textCells[this.cell] === true)
      this.out[this.length++] = APOSTROPHE;
    this.out[this.length++] = c;
    this.content++;
  }

  /**
   * The batch read so far; the reader starts over empty. Its bytes stay valid until the second `take`
   * after this one: the reader alternates between two buffers, so one batch can be written out while
   * the next is read, without a new multi-megabyte buffer per batch (each one made V8 collect its old
   * generation: a full collection per batch, measured with --trace-gc).
   */
  take(): CopiedCsv {
    if (this.cell !== 0 || this.started || this.quoted) throw new Error('COPY output ended inside a line');
    const taken: CopiedCsv = {
      bytes: this.out.subarray(0, this.length),
      rows: this.rows,
      lastKey: this.rows === 0 ? [] : keyCells(this.lastKey, this.separator),
    };
    const filled = this.out;
    this.out = this.spare.length >= filled.length ? this.spare : new Uint8Array(filled.length);
    this.spare = filled;
    this.length = 0;
    this.rows = 0;
    return taken;
  }
}

/** The key's two cells as text, unquoted (a text sort key may hold the separator or a quote). */
function keyCells(bytes: Uint8Array, separator: number): string[] {
  const text = new TextDecoder().decode(bytes);
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c !== '"') cell += c;
      else if (text[i + 1] === '"') cell += text[++i];
      else quoted = false;
    } else if (c === '"') quoted = true;
    else if (c.charCodeAt(0) === separator) {
      cells.push(cell);
      cell = '';
    } else cell += c;
  }
  cells.push(cell);
  if (cells.length !== KEY_CELLS) throw new Error(`COPY output: a key of ${cells.length} cells`);
  return cells;
}

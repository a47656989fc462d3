// PostgreSQL's `COPY … TO STDOUT (FORMAT csv)` output turned into the export's CSV, on bytes
// (docs/decisions/0090). COPY already quotes exactly as `csvField` does (a value holding the separator,
// a quote, CR or LF is quoted, its quotes doubled) and writes NULL as an empty cell; what it does not
// do, this pass does without decoding a single cell:
//   - text cells are neutralised (neutralise.ts): a leading `=`, `+`, `-`, `@`, tab or CR gets a `'`,
//     inside the quotes when the cell is quoted (COPY always quotes a value starting with CR);
//   - an empty string, which COPY writes as `""` to tell it from NULL, becomes an empty cell;
//   - lines end in CRLF, not LF;
//   - the first `keyCells` cells of each line (the keyset position: sort key and id, never quoted) are
//     dropped, and the last line's are kept for the next batch.
// The result is byte for byte what `csvChunks` writes for the same values (tests/api/exports-csv-sql.test.ts).

const QUOTE = 0x22;
const APOSTROPHE = 0x27;
const LF = 0x0a;
const CR = 0x0d;

const isFormulaStart = (c: number) =>
  c === 0x3d || c === 0x2b || c === 0x2d || c === 0x40 || c === 0x09 || c === 0x0d;

export interface CopiedCsv {
  /** The lines as the export writes them, CRLF-terminated. */
  bytes: Uint8Array;
  rows: number;
  /** The last line's key cells, as text (empty when no line was read). */
  lastKey: string[];
}

/**
 * Reads COPY's CSV output for one batch, chunk by chunk (a chunk may end anywhere: inside a cell, a
 * quoted value or a line), and collects the export's bytes. `textCells[i]` says whether the i-th cell
 * after the key cells is a text cell (the only ones neutralised: money and dates are typed values).
 */
export class CopyCsvReader {
  private out: Uint8Array;
  private length = 0;
  private rows = 0;
  /** Cell index within the line. */
  private cell = 0;
  /** Whether the current cell has begun (its first byte, perhaps an opening quote, was read). */
  private started = false;
  /** Bytes of the current cell's value read so far (an escaped quote counts once). */
  private content = 0;
  private quoted = false;
  /** Inside a quoted cell, the previous byte was a quote: an escaped one or the closing one. */
  private quoteSeen = false;
  private key: number[][];
  private lastKey: number[][];
  private readonly separator: number;

  constructor(
    private readonly textCells: readonly boolean[],
    separator: ';' | ',',
    private readonly keyCells = 2,
    capacity = 1 << 20,
  ) {
    this.separator = separator.charCodeAt(0);
    this.out = new Uint8Array(capacity);
    this.key = Array.from({ length: keyCells }, () => []);
    this.lastKey = this.key.map(() => []);
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

  /** One byte of the current cell's value (`raw`: as written, an escaped quote's two bytes). */
  private value(c: number, raw: number): void {
    if (this.cell < this.keyCells) {
      this.key[this.cell]!.push(c);
    } else {
      if (this.content === 0 && isFormulaStart(c) && this.textCells[this.cell - this.keyCells] === true)
        this.out[this.length++] = APOSTROPHE;
      this.out[this.length++] = c;
      if (raw === 2) this.out[this.length++] = c;
    }
    this.content++;
  }

  private endCell(): void {
    this.cell++;
    this.started = false;
    this.content = 0;
  }

  push(chunk: Uint8Array): void {
    // A cell's `'` and a line's CR are at most one byte more per input byte.
    this.reserve(chunk.length * 2);
    const sep = this.separator;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i]!;
      if (this.quoted) {
        if (!this.quoteSeen) {
          if (c === QUOTE) this.quoteSeen = true;
          else this.value(c, 1);
          continue;
        }
        this.quoteSeen = false;
        if (c === QUOTE) {
          this.value(c, 2);
          continue;
        }
        // The previous quote closed the cell; `c` ends it. `""` is COPY's empty string: an empty cell.
        this.quoted = false;
        if (this.cell >= this.keyCells) {
          if (this.content === 0) this.length--;
          else this.out[this.length++] = QUOTE;
        }
      }
      if (c === sep) {
        if (this.cell >= this.keyCells) this.out[this.length++] = c;
        this.endCell();
      } else if (c === LF) {
        this.out[this.length++] = CR;
        this.out[this.length++] = LF;
        this.rows++;
        const kept = this.lastKey;
        this.lastKey = this.key;
        this.key = kept;
        for (const k of kept) k.length = 0;
        this.cell = 0;
        this.started = false;
        this.content = 0;
      } else if (!this.started && c === QUOTE) {
        this.started = true;
        this.quoted = true;
        if (this.cell >= this.keyCells) this.out[this.length++] = QUOTE;
      } else {
        this.started = true;
        this.value(c, 1);
      }
    }
  }

  /** The batch read so far; the reader starts over empty, in a new buffer of the same size. */
  take(): CopiedCsv {
    if (this.cell !== 0 || this.started || this.quoted) throw new Error('COPY output ended inside a line');
    const decoder = new TextDecoder();
    const taken: CopiedCsv = {
      bytes: this.out.subarray(0, this.length),
      rows: this.rows,
      lastKey: this.rows === 0 ? [] : this.lastKey.map((k) => decoder.decode(Uint8Array.from(k))),
    };
    this.out = new Uint8Array(this.out.length);
    this.length = 0;
    this.rows = 0;
    return taken;
  }
}

// PostgreSQL's `COPY … TO STDOUT (FORMAT binary)` output of rows whose first field is already the
// export's bytes (an XLSX sheet's `<row>` element, docs/decisions/0105), followed by the keyset position
// (sort key and id, as text). The binary format is length-prefixed: the row's bytes are copied as they
// are, with no scanning and no escapes to undo. Layout: an 11-byte signature, a 32-bit flags field and
// a 32-bit header-extension length (and that many bytes); then per row a 16-bit field count and, per
// field, a 32-bit length (-1 for NULL) and the bytes; a field count of -1 ends the data.

const SIGNATURE = [0x50, 0x47, 0x43, 0x4f, 0x50, 0x59, 0x0a, 0xff, 0x0d, 0x0a, 0x00];
const HEADER = SIGNATURE.length + 8;
/** The row's bytes, then the key: sort key and id. */
const FIELDS = 3;

export interface CopiedRows {
  /** The rows' first fields, one after another. */
  bytes: Uint8Array;
  rows: number;
  /** The last row's key (sort key, id); empty when no row was read. */
  lastKey: string[];
}

/**
 * Reads one batch's COPY output piece by piece (a piece may end anywhere) and collects the rows' bytes.
 * Like `CopyCsvReader` it alternates two buffers, so a batch taken stays valid while the next is read.
 */
export class CopyRowsReader {
  private out: Uint8Array;
  private spare: Uint8Array;
  private length = 0;
  private rows = 0;
  /** Bytes of an incomplete header or row, kept until the rest arrives. */
  private pending: Uint8Array = new Uint8Array(0);
  private headerRead = false;
  private ended = false;
  private lastKey: string[] = [];
  private readonly decoder = new TextDecoder();

  constructor(capacity = 1 << 20) {
    this.out = new Uint8Array(capacity);
    this.spare = new Uint8Array(capacity);
  }

  push(chunk: Uint8Array): void {
    let data = chunk;
    if (this.pending.length > 0) {
      data = new Uint8Array(this.pending.length + chunk.length);
      data.set(this.pending);
      data.set(chunk, this.pending.length);
    }
    const used = this.read(data);
    this.pending = used === data.length ? new Uint8Array(0) : data.slice(used);
  }

  /** Reads whole units (header, rows, end) from `data`, answering how many bytes were used. */
  private read(data: Uint8Array): number {
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    let at = 0;
    if (!this.headerRead) {
      if (data.length < HEADER) return 0;
      SIGNATURE.forEach((b, i) => {
        if (data[i] !== b) throw new Error('COPY output is not PostgreSQL binary');
      });
      const extension = view.getUint32(SIGNATURE.length + 4);
      if (data.length < HEADER + extension) return 0;
      at = HEADER + extension;
      this.headerRead = true;
    }
    let keyAt = -1;
    while (at + 2 <= data.length) {
      if (this.ended) throw new Error('COPY output goes on after its end');
      const fields = view.getInt16(at);
      if (fields === -1) {
        this.ended = true;
        at += 2;
        continue;
      }
      if (fields !== FIELDS) throw new Error(`COPY output: a row of ${fields} fields`);
      // The row is read only once it is whole.
      let end = at + 2;
      for (let f = 0; f < FIELDS; f++) {
        if (end + 4 > data.length) return this.finish(data, at, keyAt);
        const length = view.getInt32(end);
        if (length < 0) throw new Error('COPY output: a NULL field');
        end += 4 + length;
      }
      if (end > data.length) return this.finish(data, at, keyAt);
      const length = view.getInt32(at + 2);
      this.reserve(length);
      this.out.set(data.subarray(at + 6, at + 6 + length), this.length);
      this.length += length;
      this.rows++;
      keyAt = at + 6 + length;
      at = end;
    }
    return this.finish(data, at, keyAt);
  }

  /** Keeps the last whole row's key (decoded once per piece, not per row). */
  private finish(data: Uint8Array, used: number, keyAt: number): number {
    if (keyAt >= 0) {
      const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
      const keyLength = view.getInt32(keyAt);
      const idAt = keyAt + 4 + keyLength;
      this.lastKey = [
        this.decoder.decode(data.subarray(keyAt + 4, idAt)),
        this.decoder.decode(data.subarray(idAt + 4, idAt + 4 + view.getInt32(idAt))),
      ];
    }
    return used;
  }

  private reserve(n: number): void {
    if (this.length + n <= this.out.length) return;
    let size = this.out.length * 2;
    while (size < this.length + n) size *= 2;
    const grown = new Uint8Array(size);
    grown.set(this.out.subarray(0, this.length));
    this.out = grown;
  }

  /**
   * The batch read so far; the reader starts over for the next COPY. Its bytes stay valid until the
   * second `take` after this one.
   */
  take(): CopiedRows {
    if (!this.ended || this.pending.length > 0) throw new Error('COPY output ended inside its data');
    const taken: CopiedRows = {
      bytes: this.out.subarray(0, this.length),
      rows: this.rows,
      lastKey: this.rows === 0 ? [] : this.lastKey,
    };
    const filled = this.out;
    this.out = this.spare.length >= filled.length ? this.spare : new Uint8Array(filled.length);
    this.spare = filled;
    this.length = 0;
    this.rows = 0;
    this.headerRead = false;
    this.ended = false;
    this.lastKey = [];
    return taken;
  }
}

/** Chunks decoded and kept at once: what a screenful of rows spans, with room to scroll back. */
const DECODED_CHUNKS = 8;
/** After the first rows, listeners hear of more at most this often while a file streams in. */
const REDRAW_MS = 250;

/**
 * The rows of a file being previewed in a worker (a bank statement's entries, a payout report's rows, a
 * SAF-T file's documents), filled chunk by chunk as the worker sends them. A chunk stays the JSON text it
 * came as until one of its rows is read (`entry`): the page copies strings, and decodes only what the
 * table shows (decision 0103), so a 100,000-row file never holds the main thread.
 */
export class PreviewRows<Row> {
  readonly keys: string[] = [];
  private chunks: string[] = [];
  /** Index of each chunk's first row. */
  private starts: number[] = [];
  private decoded = new Map<number, Row[]>();
  private rowCount = 0;
  private readonly listeners = new Set<() => void>();
  private version = 0;
  private scheduled = false;
  private lastNotice = -Infinity;

  get count(): number {
    return this.rowCount;
  }

  addChunk(count: number, json: string): void {
    this.starts.push(this.rowCount);
    this.chunks.push(json);
    this.rowCount += count;
    this.changed();
  }

  entry(index: number): Row | undefined {
    if (index < 0 || index >= this.rowCount) return undefined;
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (this.starts[mid]! <= index) low = mid;
      else high = mid - 1;
    }
    let rows = this.decoded.get(low);
    if (!rows) {
      rows = JSON.parse(this.chunks[low]!) as Row[];
      if (this.decoded.size >= DECODED_CHUNKS) this.decoded.delete(this.decoded.keys().next().value!);
      this.decoded.set(low, rows);
    }
    return rows[index - this.starts[low]!];
  }

  /** Drops the rows received so far (the worker found they were not the file's). */
  clear(): void {
    this.chunks = [];
    this.starts = [];
    this.decoded = new Map();
    this.rowCount = 0;
    this.keys.length = 0;
    this.changed();
  }

  /** The rows' keys (the server is asked which are known), in the rows' order; they arrive after the rows. */
  addKeys(keys: string[]): void {
    for (const key of keys) this.keys.push(key);
  }

  /**
   * Listeners hear of new rows in the next frame, then at most every REDRAW_MS however many chunks
   * arrive: the first rows show at once, and a long file does not redraw the table a hundred times.
   */
  private changed(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    const wait = Math.max(0, this.lastNotice + REDRAW_MS - performance.now());
    setTimeout(
      () =>
        requestAnimationFrame(() => {
          this.scheduled = false;
          this.lastNotice = performance.now();
          this.version++;
          for (const listener of this.listeners) listener();
        }),
      wait,
    );
  }

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getVersion = () => this.version;
}

import type { StatementEntry } from '../../../domain/statements/types';
import type { StatementPreviewOutcome } from '../../../machines/statement-import';
import type { PreviewDetails, PreviewMessage, PreviewRequest } from './preview-protocol';

/** Chunks decoded and kept at once: what a screenful of rows spans, with room to scroll back. */
const DECODED_CHUNKS = 8;
/** After the first rows, listeners hear of more at most this often while a file streams in. */
const REDRAW_MS = 250;

/**
 * The rows of the file being previewed, filled chunk by chunk as the worker sends them. A chunk stays
 * the JSON text it came as until one of its rows is read (`entry`): the page copies strings, and
 * decodes only what the table shows.
 */
export class PreviewRows {
  readonly keys: string[] = [];
  private chunks: string[] = [];
  /** Index of each chunk's first row. */
  private starts: number[] = [];
  private decoded = new Map<number, StatementEntry[]>();
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

  entry(index: number): StatementEntry | undefined {
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
      rows = JSON.parse(this.chunks[low]!) as StatementEntry[];
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

  /** The line keys, in the entries' order (they arrive after the entries). */
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

/**
 * Reads `file` in the preview worker (a chunk of its own, with the parsers and papaparse): rows arrive
 * in `rows` as they are parsed; the promise settles with what the flow decides on. Aborting ends the
 * worker.
 */
export async function previewInWorker(
  file: Blob,
  request: Omit<PreviewRequest, 'bytes'>,
  rows: PreviewRows,
  signal: AbortSignal,
): Promise<{ outcome: StatementPreviewOutcome; details: PreviewDetails }> {
  const bytes = await file.arrayBuffer();
  signal.throwIfAborted();
  const worker = new Worker(new URL('./preview.worker.ts', import.meta.url), { type: 'module' });
  try {
    return await new Promise((resolve, reject) => {
      signal.addEventListener('abort', () => reject(signal.reason), { once: true });
      worker.onerror = (event) => reject(new Error(event.message || 'preview worker failed'));
      worker.onmessage = (event: MessageEvent<PreviewMessage>) => {
        const message = event.data;
        if (message.type === 'rows') rows.addChunk(message.count, message.json);
        else if (message.type === 'reset') rows.clear();
        else if (message.type === 'keys') rows.addKeys(message.keys);
        else resolve({ outcome: { ...message.outcome, keys: rows.keys }, details: message.details });
      };
      worker.postMessage({ ...request, bytes } satisfies PreviewRequest, [bytes]);
    });
  } finally {
    worker.terminate();
  }
}

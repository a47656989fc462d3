import type { StatementEntry } from '../../../domain/statements/types';
import type { StatementPreviewOutcome } from '../../../machines/statement-import';
import type { PreviewDetails, PreviewMessage, PreviewRequest } from './preview-protocol';

/** The rows of the file being previewed, filled chunk by chunk as the worker sends them. */
export class PreviewRows {
  readonly entries: StatementEntry[] = [];
  readonly keys: string[] = [];
  private readonly listeners = new Set<() => void>();
  private version = 0;

  addEntries(entries: StatementEntry[]): void {
    for (const entry of entries) this.entries.push(entry);
    this.changed();
  }

  /** Drops the rows received so far (the worker found they were not the file's). */
  clear(): void {
    this.entries.length = 0;
    this.keys.length = 0;
    this.changed();
  }

  /** The line keys, in the entries' order (they arrive after the entries). */
  addKeys(keys: string[]): void {
    for (const key of keys) this.keys.push(key);
  }

  private scheduled = false;

  /** Listeners hear of new rows once per frame, however many chunks arrived in it. */
  private changed(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    requestAnimationFrame(() => {
      this.scheduled = false;
      this.version++;
      for (const listener of this.listeners) listener();
    });
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
        if (message.type === 'rows') rows.addEntries(message.entries);
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

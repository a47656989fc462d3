import type { StatementEntry } from '../../../domain/statements/types';
import type { StatementPreviewOutcome } from '../../../machines/statement-import';
import type { PreviewRows } from '../../kernel/preview-rows';
import type { PreviewDetails, PreviewMessage, PreviewRequest } from './preview-protocol';

/** A statement's entries as the preview worker sends them. */
export type StatementPreviewRows = PreviewRows<StatementEntry>;

/**
 * Reads `file` in the preview worker (a chunk of its own, with the parsers and papaparse): rows arrive
 * in `rows` as they are parsed; the promise settles with what the flow decides on. Aborting ends the
 * worker.
 */
export async function previewInWorker(
  file: Blob,
  request: Omit<PreviewRequest, 'bytes'>,
  rows: StatementPreviewRows,
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

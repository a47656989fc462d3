import type { SourcePreviewOutcome } from '../../../machines/source-import';
import type { PreviewRows } from '../../kernel/preview-rows';
import type {
  SourcePreviewDetails,
  SourcePreviewMessage,
  SourcePreviewRequest,
  SourcePreviewRow,
} from './preview-protocol';

export type SourcePreviewRows = PreviewRows<SourcePreviewRow>;

/**
 * Reads `file` in the preview worker (a chunk of its own, with the readers; the worker reads the bytes,
 * not the page): rows arrive in `rows` as
 * they are read, their ids after them; the promise settles with what the flow decides on. Aborting ends
 * the worker.
 */
export async function previewSourceInWorker(
  file: Blob,
  request: Omit<SourcePreviewRequest, 'file'>,
  rows: SourcePreviewRows,
  signal: AbortSignal,
): Promise<{ outcome: SourcePreviewOutcome; details: SourcePreviewDetails | null }> {
  signal.throwIfAborted();
  const worker = new Worker(new URL('./preview.worker.ts', import.meta.url), { type: 'module' });
  try {
    return await new Promise((resolve, reject) => {
      signal.addEventListener('abort', () => reject(signal.reason), { once: true });
      worker.onerror = (event) => reject(new Error(event.message || 'source preview worker failed'));
      worker.onmessage = (event: MessageEvent<SourcePreviewMessage>) => {
        const message = event.data;
        if (message.type === 'rows') rows.addChunk(message.count, message.json);
        else if (message.type === 'ids') rows.addKeys(message.ids);
        else resolve({ outcome: { ...message.outcome, ids: rows.keys }, details: message.details });
      };
      worker.postMessage({ ...request, file } satisfies SourcePreviewRequest);
    });
  } finally {
    worker.terminate();
  }
}

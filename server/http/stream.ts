import type { HttpBindings } from '@hono/node-server';
import { FileTooLargeError } from '../platform/files/storage';
import type { AppContext } from './context';
import { payloadTooLarge } from './errors';

/**
 * A response body fed by an async generator of chunks (the export-file writers): each chunk is made
 * when the client is ready for it, so memory stays flat and a slow reader slows the writer. A client
 * that goes away cancels the stream, which ends the generator (its `finally` blocks run).
 */
export function chunkStream(chunks: AsyncGenerator<Uint8Array, void, undefined>): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
}

/**
 * The request's raw body as it arrives, for a `rawBody` route to stream into the storage. On the Node
 * server it is read from the socket itself, which stops reading while the consumer is busy. The web
 * stream @hono/node-server offers instead (`Readable.toWeb`) counts its queue in chunks, not bytes, so
 * behind a slower consumer — a 40 MB upload going into PostgreSQL — it took in the whole body and grew
 * the process by ~40–60 MB (bench/results/files-storage.md). Off the Node server (`app.request` in
 * tests) there is no socket and the Request's stream is read.
 */
export function requestBody(c: AppContext): AsyncIterable<Uint8Array> | ReadableStream<Uint8Array> {
  // c.env is whatever the adapter passed: @hono/node-server's bindings, or nothing at all.
  const incoming = (c.env as Partial<HttpBindings> | undefined)?.incoming;
  return incoming ?? c.req.raw.body ?? new ReadableStream({ start: (controller) => controller.close() });
}

/** An upload's storing, with the storage's size refusal answered as the API's 413 PAYLOAD_TOO_LARGE. */
export async function refusingOversize<T>(storing: Promise<T>): Promise<T> {
  try {
    return await storing;
  } catch (error) {
    throw error instanceof FileTooLargeError ? payloadTooLarge() : error;
  }
}

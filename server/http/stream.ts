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

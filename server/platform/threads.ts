import { setFlagsFromString } from 'node:v8';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Worker threads with a heap of their own (decision 0168). `npm start` caps the young generation with
 * `--max-semi-space-size=4` (decision 0085), a V8 flag, process-wide: V8 sizes every new isolate's young
 * generation from it when it is set, over the `resourceLimits.maxYoungGenerationSizeMb` a worker asks for.
 * So before a thread starts the flag is set back to 0 ("not set"): the API thread keeps the 4 MiB
 * semi-spaces it was configured with at start (an isolate's heap is configured once), and each thread gets
 * the young generation it names. Every thread of the server starts here, so none starts with V8's default
 * (for a worker on a 24 GiB host, 64 MiB semi-spaces).
 */

export interface ThreadHeap {
  /** `resourceLimits.maxOldGenerationSizeMb`. */
  oldMb: number;
  /** `resourceLimits.maxYoungGenerationSizeMb`: three semi-spaces (two and the new large objects' space). */
  youngMb: number;
}

/** A worker thread running `boot` (code, `eval`), its heap `heap`. */
export function startThread(
  boot: string,
  heap: ThreadHeap,
  options: Pick<WorkerOptions, 'workerData' | 'transferList'>,
): Worker {
  // Set here, on the thread that starts the worker, before it exists: the new isolate reads it while it
  // is configured, so no thread can start between the two. Setting it again is harmless.
  setFlagsFromString('--max-semi-space-size=0');
  return new Worker(boot, {
    ...options,
    eval: true,
    resourceLimits: { maxOldGenerationSizeMb: heap.oldMb, maxYoungGenerationSizeMb: heap.youngMb },
  });
}

/**
 * Resolves after one turn of the event loop (`setImmediate`): timers run, sockets are read and requests
 * answered before the caller goes on. Long CPU work slices itself with it. On PGlite it is the only way a
 * run of queries lets anything else in: each query runs synchronously (WASM) and resolves as a microtask,
 * so `await`ing one query after another never turns the loop (decision 0139).
 */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

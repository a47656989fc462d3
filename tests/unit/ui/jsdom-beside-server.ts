import { builtinEnvironments } from 'vitest/environments';

/**
 * A jsdom document in a node-environment test, for a console test that runs the real API in the same
 * process. Vitest's jsdom environment cannot host the server: it transforms modules for the browser,
 * which rewrites the server's `new URL(…, import.meta.url)` file paths into http URLs. Here the modules
 * stay Node's and the console gets vitest's own jsdom set-up; the web platform classes the server and
 * the HTTP client share (URL, fetch, Request, Blob, AbortController…) stay Node's. Import this first.
 */
const NODE_KEYS = [
  'URL',
  'URLSearchParams',
  'fetch',
  'Request',
  'Response',
  'Headers',
  'Blob',
  'File',
  'FormData',
  'AbortController',
  'AbortSignal',
  'TextEncoder',
  'TextDecoder',
  'ReadableStream',
  // The server's checks of request bodies (`instanceof Uint8Array`) need Node's typed arrays, not jsdom's.
  'Uint8Array',
  'ArrayBuffer',
] as const;
const global = globalThis as unknown as Record<string, unknown>;
const kept = new Map(NODE_KEYS.map((key) => [key, global[key]]));
await builtinEnvironments.jsdom.setup(globalThis, {});
for (const [key, value] of kept) global[key] = value;

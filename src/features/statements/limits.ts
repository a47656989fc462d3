// The contract's numbers the console needs at run time, without the schemas (zod stays out of the bundle).
/** `KNOWN_LINES_MAX_KEYS` of contract/statement-import.ts: the browser asks in chunks of this many keys. */
export const KNOWN_LINES_MAX_KEYS = 5_000;

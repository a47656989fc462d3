import { describeError } from '../platform/describe-error';

/**
 * A server answers many people at once, so one request's stray failure (a promise nobody awaited,
 * a throw in a callback) must not end the process and every other request with it: log it the way
 * handleError does (never the error's SQL or parameters) and keep serving. The failure is still a
 * bug; the log line is how it is found.
 */
export function keepServingAfterStrayErrors(log: (line: string) => void = console.error): void {
  process.on('unhandledRejection', (reason) =>
    log(`Unhandled promise rejection (still serving): ${describeError(reason)}`),
  );
  process.on('uncaughtException', (error) =>
    log(`Uncaught exception (still serving): ${describeError(error)}`),
  );
}

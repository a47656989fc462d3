/** PostgreSQL's error codes (SQLSTATE): five digits or capitals, at least one a digit (not EPIPE). */
const SQLSTATE = /^(?=.*\d)[0-9A-Z]{5}$/;

/**
 * What the log may say about an unexpected error: its class, code and message. Never the whole
 * object: a database error carries the statement and its parameters, which can hold personal data.
 * Nor a database error's message: PostgreSQL quotes the offending value there (decision 0122); and
 * `withMessage: false` for errors whose message quotes personal data (a mail server names the recipient).
 */
export function describeError(error: unknown, { withMessage = true } = {}): string {
  if (!(error instanceof Error)) return `non-error thrown (${typeof error})`;
  const code = (error as { code?: unknown }).code;
  // The stack's frames say where it failed, and hold only file names and lines.
  const frames = (error.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line));
  const named = `${error.name}${typeof code === 'string' ? ` ${code}` : ''}`;
  const what =
    typeof code === 'string' && SQLSTATE.test(code)
      ? `${named} (a database error: its message is not logged)`
      : withMessage
        ? `${named}: ${error.message}`
        : named;
  return [what, ...frames].join('\n');
}

import { describe, expect, it } from 'vitest';
import { describeError } from '../../../server/platform/describe-error';

/** An error as pg and PGlite throw it: a SQLSTATE code, a message that may quote the value. */
const databaseError = (code: string, message: string) => Object.assign(new Error(message), { code });

describe('what the error handler logs (decision 0122)', () => {
  it("names a database error by class and SQLSTATE, without its message, which quotes the row's values", () => {
    const logged = describeError(databaseError('22007', 'invalid input syntax for type date: "Leonor 2026"'));
    expect(logged).toMatch(/^Error 22007 /);
    expect(logged).not.toContain('Leonor');
    expect(describeError(databaseError('P0001', 'refused PT50003300004567890123437'))).not.toContain('PT50');
  });

  it('keeps the message of other errors, system ones (EPIPE) included: it says what went wrong', () => {
    expect(describeError(databaseError('EPIPE', 'write EPIPE'))).toMatch(/^Error EPIPE: write EPIPE/);
    expect(describeError(new TypeError('x is not a function'))).toMatch(/^TypeError: x is not a function/);
  });
});

import rosetta from 'rosetta';
import { describe, expect, it } from 'vitest';
import enGB from '../../../locales/en-GB.json';
import { ApiError } from '../../../src/api/http';
import { formatError } from '../../../src/kernel/error-format';

const dictionary = rosetta({ 'en-GB': enGB });
dictionary.locale('en-GB');
const t = (key: string, params?: Record<string, string | number>) => dictionary.t(key, params);

describe('formatError', () => {
  it('titles every message with errorMessages.title', () => {
    expect(formatError(new ApiError(500, 'GENERIC_ERROR'), t).title).toBe('Error');
  });

  it('looks the message up by code', () => {
    expect(formatError(new ApiError(500, 'GENERIC_ERROR'), t).message).toBe(
      'An error occurred, try again later',
    );
    expect(formatError(new ApiError(401, 'EMAIL_OR_PASSWORD_INVALID'), t).message).toBe(
      'Email or password is invalid or user not allowed',
    );
  });

  it('lists validation errors as field: message lines, naming fields as the screen does', () => {
    const error = new ApiError(400, 'VALIDATION_ERROR', [
      { field: 'email', code: 'email' },
      { field: 'password', code: 'required' },
    ]);
    expect(formatError(error, t).message).toBe(
      `${enGB.login.email}: Incorrect email format\n${enGB.login.password}: This is required`,
    );
  });

  it('never shows a parameter name: the search box by its label, an unknown field not at all', () => {
    const tooLong = new ApiError(400, 'VALIDATION_ERROR', [{ field: 'q', code: 'too_big' }]);
    expect(formatError(tooLong, t).message).toMatch(new RegExp(`^${enGB.table.search}: `));
    const unknown = new ApiError(400, 'VALIDATION_ERROR', [{ field: 'createdFrom', code: 'required' }]);
    expect(formatError(unknown, t).message).toBe('This is required');
  });

  it('falls back for unknown codes, missing codes and non-API failures', () => {
    const fallback = 'Something went wrong. Try again or contact our support';
    expect(formatError(new ApiError(418, 'TEAPOT'), t).message).toBe(fallback);
    expect(formatError(new ApiError(0, null), t).message).toBe(fallback);
    expect(formatError(new Error('boom'), t).message).toBe(fallback);
  });
});

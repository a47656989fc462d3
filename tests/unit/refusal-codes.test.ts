// Every refusal a service can raise is declared once (contract/refusal-codes.ts); this checks that each
// declared code is answered with an error status and that the console has words for it in both locales.
import { describe, expect, it } from 'vitest';
import { REFUSAL_CODES, REFUSAL_STATUSES } from '../../contract/refusal-codes';
import { REFUSAL_STATUS } from '../../server/http/refusals';
import { errorCodeKey } from '../../src/i18n/error-codes';
import { enGB, ptPT } from '../support/messages';

const translation = (messages: Record<string, unknown>, code: string): unknown =>
  (messages.errorMessages as Record<string, unknown>)[code];

describe('refusal codes', () => {
  it('are SCREAMING_SNAKE and declared once', () => {
    for (const code of REFUSAL_CODES) expect(code).toMatch(/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/);
    expect(new Set(REFUSAL_CODES).size).toBe(REFUSAL_CODES.length);
  });

  it.each(REFUSAL_CODES)('%s has an error status, the same the API answers', (code) => {
    expect(REFUSAL_STATUS[code]).toBe(REFUSAL_STATUSES[code]);
    expect(REFUSAL_STATUS[code]).toBeGreaterThanOrEqual(400);
    expect(REFUSAL_STATUS[code]).toBeLessThan(600);
  });

  it.each(REFUSAL_CODES)('%s is translated in pt-PT and en-GB', (code) => {
    expect(errorCodeKey(code)).toBe(`errorMessages.${code}`);
    expect(translation(ptPT, code)).toEqual(expect.stringMatching(/\S/));
    expect(translation(enGB, code)).toEqual(expect.stringMatching(/\S/));
  });
});

// The source readers' refusal codes (domain/sources/refusal.ts) are refusals the API can answer: each is
// declared with its status in contract/refusal-codes.ts (where refusal-codes.test.ts checks its words).
import { describe, expect, it } from 'vitest';
import { REFUSAL_STATUSES } from '../../../contract/refusal-codes';
import { SOURCE_REFUSAL_CODES } from '../../../domain/sources/refusal';

describe('source refusal codes', () => {
  it.each(SOURCE_REFUSAL_CODES)('%s is declared with a client-error status', (code) => {
    expect(REFUSAL_STATUSES).toHaveProperty(code);
    const status = (REFUSAL_STATUSES as Record<string, number>)[code]!;
    expect(status).toBeGreaterThanOrEqual(400);
    expect(status).toBeLessThan(500);
  });
});

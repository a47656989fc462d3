import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { requestHash } from '../../../server/platform/idempotency';

/**
 * The hash an Idempotency-Key's first answer is stored under. The routes hash the body after zod has
 * parsed it, and zod writes an object's keys in its schema's order, so no route can send the same
 * request with its keys in another order today (the mutation `idempotency-hash-depends-on-key-order`
 * is invisible over HTTP); the hash itself must still not depend on the order, or a route that hashes
 * a record (keys in the client's order) would refuse a retry as IDEMPOTENCY_KEY_REUSED.
 */
describe('requestHash', () => {
  it('hashes equal requests alike whatever order their keys came in, at any depth', () => {
    expect(requestHash({ referenceMonth: '2026-04', professionalIds: ['a'] })).toBe(
      requestHash({ professionalIds: ['a'], referenceMonth: '2026-04' }),
    );
    expect(requestHash({ a: { x: 1, y: [{ p: 1, q: 2 }] } })).toBe(
      requestHash({ a: { y: [{ q: 2, p: 1 }], x: 1 } }),
    );
  });

  it('tells different requests apart: values, array order, and a key left out are not the same', () => {
    const base = requestHash({ referenceMonth: '2026-04', professionalIds: ['a', 'b'] });
    expect(requestHash({ referenceMonth: '2026-05', professionalIds: ['a', 'b'] })).not.toBe(base);
    expect(requestHash({ referenceMonth: '2026-04', professionalIds: ['b', 'a'] })).not.toBe(base);
    expect(requestHash({ referenceMonth: '2026-04' })).not.toBe(base);
    // An undefined key is a key not sent.
    expect(requestHash({ referenceMonth: '2026-04', executionDate: undefined })).toBe(
      requestHash({ referenceMonth: '2026-04' }),
    );
  });

  it('any object and the same object with its keys reversed hash alike (property)', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (value) => {
        const reversed = Object.fromEntries(Object.entries(value).reverse());
        expect(requestHash(reversed)).toBe(requestHash(value));
      }),
    );
  });
});

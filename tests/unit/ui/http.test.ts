// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ApiError,
  compactQuery,
  prefetchRequest,
  request,
  serializeParams,
  setUnauthorizedHandler,
  toApiError,
} from '../../../src/api/http';
import { shouldRetry } from '../../../src/api/query-client';
import { fetchMe, prefetchMe } from '../../../src/api/session';
import { clearCookies, fakeApi } from './fake-api';

afterEach(() => {
  clearCookies();
  setUnauthorizedHandler(null);
  vi.unstubAllGlobals();
});

describe('serializeParams', () => {
  it('repeats keys for arrays and skips null and undefined', () => {
    expect(serializeParams({ status: ['A', 'B'], q: 'ana maria', limit: 20, x: undefined, y: null })).toBe(
      'status=A&status=B&q=ana+maria&limit=20',
    );
  });
});

describe('compactQuery', () => {
  it('drops empty strings, empty arrays and NaN but keeps zero and false', () => {
    expect(
      compactQuery({ q: '', status: [], page: Number.NaN, limit: 0, verified: false, role: ['A'] }),
    ).toEqual({
      limit: 0,
      verified: false,
      role: ['A'],
    });
  });
});

describe('toApiError', () => {
  it('reads status, code and field errors from a redaxios rejection', () => {
    const error = toApiError(
      { status: 400, data: { code: 'VALIDATION_ERROR', errors: [{ field: 'email', code: 'email' }] } },
      'user/login',
    );
    expect(error).toBeInstanceOf(ApiError);
    expect([error.status, error.code, error.errors]).toEqual([
      400,
      'VALIDATION_ERROR',
      [{ field: 'email', code: 'email' }],
    ]);
  });

  it('keeps the facts a refusal body carries beside its code and message (a line, both numbers)', () => {
    const error = toApiError(
      {
        status: 422,
        data: {
          code: 'STRIPE_PAYOUT_SUM_MISMATCH',
          message: 'refused',
          line: 4,
          payoutId: 'po_1',
          payoutCents: 10_000,
          rowsNetCents: 9_870,
        },
      },
      'admin/sources/imports',
    );
    expect(error.details).toEqual({ line: 4, payoutId: 'po_1', payoutCents: 10_000, rowsNetCents: 9_870 });
    expect(toApiError(new TypeError('Failed to fetch'), 'x').details).toEqual({});
  });

  it('treats a network failure as status 0 without code', () => {
    const error = toApiError(new TypeError('Failed to fetch'), 'x');
    expect([error.status, error.code]).toEqual([0, null]);
  });
});

describe('shouldRetry', () => {
  it('retries only above 500 or without a response, at most 5 times', () => {
    expect(shouldRetry(0, new ApiError(500, 'GENERIC_ERROR'))).toBe(false);
    expect(shouldRetry(0, new ApiError(404, 'NOT_FOUND'))).toBe(false);
    expect(shouldRetry(0, new ApiError(502, null))).toBe(true);
    expect(shouldRetry(0, new ApiError(0, null))).toBe(true);
    expect(shouldRetry(4, new ApiError(503, null))).toBe(true);
    expect(shouldRetry(5, new ApiError(503, null))).toBe(false);
  });
});

describe('request', () => {
  it('prefixes /v2/ and serialises arrays, leaving the session to the browser cookie (no Authorization)', async () => {
    const api = fakeApi({ 'GET /v2/admin/users': () => ({ status: 200, body: { items: [] } }) });
    // biome-ignore lint/suspicious/noDocumentCookie: jsdom has no Cookie Store API; the test sets the cookie a browser would hold
    document.cookie = 'authorization=tok-123; Path=/';
    await expect(request('admin/users', { params: { status: ['A', 'B'] } })).resolves.toEqual({ items: [] });
    expect(api.calls[0]?.url).toBe('/v2/admin/users?status=A&status=B');
    expect(api.calls[0]?.headers.authorization).toBeUndefined();
  });

  it('calls the unauthorized handler on a 401 outside the session endpoints', async () => {
    fakeApi({
      'GET /v2/admin/users': () => ({ status: 401, body: { code: 'UNAUTHORIZED' } }),
      'POST /v2/user/login': () => ({ status: 401, body: { code: 'EMAIL_OR_PASSWORD_INVALID' } }),
    });
    const handler = vi.fn();
    setUnauthorizedHandler(handler);
    await expect(request('user/login', { method: 'post', data: {} })).rejects.toMatchObject({
      code: 'EMAIL_OR_PASSWORD_INVALID',
    });
    expect(handler).not.toHaveBeenCalled();
    await expect(request('admin/users')).rejects.toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    expect(handler).toHaveBeenCalledTimes(1);
  });
});

describe('prefetchRequest', () => {
  it('hands its answer to the next identical request instead of asking twice', async () => {
    const api = fakeApi({ 'GET /v2/admin/users': () => ({ status: 200, body: { items: [] } }) });
    prefetchRequest('admin/users', { role: ['CUSTOMER'], limit: 50 });
    // Same parameters in another order: the same request.
    await expect(request('admin/users', { params: { limit: 50, role: ['CUSTOMER'] } })).resolves.toEqual({
      items: [],
    });
    expect(api.calls).toHaveLength(1);
    // Taken once: the next call asks the server again.
    await request('admin/users', { params: { role: ['CUSTOMER'], limit: 50 } });
    expect(api.calls).toHaveLength(2);
  });

  it('is not handed to a different request', async () => {
    const api = fakeApi({ 'GET /v2/admin/users': () => ({ status: 200, body: { items: [] } }) });
    prefetchRequest('admin/users', { role: ['CUSTOMER'], limit: 50 });
    await request('admin/users', { params: { role: ['PROFESSIONAL'], limit: 50 } });
    expect(api.calls).toHaveLength(2);
  });

  it('forgets a failed prefetch, so the next request gets a fresh attempt', async () => {
    let status = 503;
    const api = fakeApi({ 'GET /v2/admin/users': () => ({ status, body: { items: [] } }) });
    prefetchRequest('admin/users', { role: ['CUSTOMER'] });
    await vi.waitFor(() => expect(api.calls).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 0));
    status = 200;
    await expect(request('admin/users', { params: { role: ['CUSTOMER'] } })).resolves.toEqual({ items: [] });
    expect(api.calls).toHaveLength(2);
  });

  it("hands the session check's answer to the session machine's own call", async () => {
    const api = fakeApi({ 'GET /v2/user/me': () => ({ status: 401, body: { code: 'UNAUTHORIZED' } }) });
    const unauthorized = vi.fn();
    setUnauthorizedHandler(unauthorized);
    prefetchMe();
    await expect(fetchMe()).rejects.toMatchObject({ status: 401 });
    expect(api.calls).toHaveLength(1);
    // A session call settles its own 401, prefetched or not.
    expect(unauthorized).not.toHaveBeenCalled();
  });
});

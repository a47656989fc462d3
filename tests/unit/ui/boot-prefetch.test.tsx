// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { UserPage } from '../../../src/api/users';
import { adminProfile, clearCookies, fakeApi } from './fake-api';
import { fillJsdomGaps } from './jsdom-gaps';
import { currentPath, renderApp } from './render-app';

// At start-up a list screen's first page is asked for while the session is still being checked
// (docs/decisions/0052); the screen then takes that answer instead of asking again.

beforeAll(fillJsdomGaps);
afterEach(() => {
  cleanup();
  clearCookies();
  vi.unstubAllGlobals();
});

const page: UserPage = { items: [], nextCursor: null, total: 0 };

function deferred<T>() {
  let resolve: (value: T) => void = () => {};
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

const usersCalls = (calls: { url: string }[]) => calls.filter((c) => c.url.startsWith('/v2/admin/users'));

describe('start-up on a users list', () => {
  it('asks for the first page during the session check, once', async () => {
    const me = deferred<{ status: number; body: unknown }>();
    const api = fakeApi({
      'GET /v2/user/me': () => me.promise,
      'GET /v2/admin/users': () => ({ status: 200, body: page }),
      'GET /v2/static-data/country': () => ({ status: 200, body: [] }),
    });
    renderApp('/customers?status=DISABLED&sort=name&order=asc', { token: 'tok-admin' });
    await waitFor(() => expect(usersCalls(api.calls)).toHaveLength(1));
    expect(usersCalls(api.calls)[0]!.url).toBe(
      '/v2/admin/users?status=DISABLED&role=CUSTOMER&sort=name&order=asc&limit=50',
    );

    me.resolve({ status: 200, body: adminProfile });
    expect(await screen.findAllByTestId('customers-total')).toHaveLength(1);
    await waitFor(() => expect(screen.getByTestId('customers-total').textContent).toContain('0'));
    expect(usersCalls(api.calls)).toHaveLength(1);
  });

  it('still sends an expired session to the login screen', async () => {
    const api = fakeApi({
      'GET /v2/user/me': () => ({ status: 401, body: { code: 'UNAUTHORIZED' } }),
      'GET /v2/admin/users': () => ({ status: 401, body: { code: 'UNAUTHORIZED' } }),
    });
    renderApp('/customers', { token: 'tok-expired' });
    await waitFor(() => expect(currentPath()).toBe('/login?redirectPath=%2Fcustomers'));
    expect(usersCalls(api.calls)).toHaveLength(1);
  });

  it('without a session cookie, learns it from the check and sends the visitor to the login screen', async () => {
    const api = fakeApi({ 'GET /v2/admin/users': () => ({ status: 401, body: { code: 'UNAUTHORIZED' } }) });
    renderApp('/customers');
    await waitFor(() => expect(currentPath()).toBe('/login?redirectPath=%2Fcustomers'));
    // The console cannot read the HttpOnly cookie: the server's answer to the check is the only verdict.
    expect(api.calls.filter((c) => c.url === '/v2/user/me')).toHaveLength(1);
    expect(usersCalls(api.calls).length).toBeLessThanOrEqual(1);
  });
});

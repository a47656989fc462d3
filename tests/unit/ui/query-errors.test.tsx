// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import toast from 'react-hot-toast';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { adminProfile, clearCookies, fakeApi } from './fake-api';
import { fillJsdomGaps } from './jsdom-gaps';
import { renderApp } from './render-app';

beforeAll(fillJsdomGaps);

afterEach(() => {
  // The toast store outlives the Toaster component.
  toast.remove();
  cleanup();
  clearCookies();
  vi.unstubAllGlobals();
});

describe('failed queries', () => {
  it('raise one danger toast titled by errorMessages.title with the message found by code', async () => {
    const api = fakeApi({
      'GET /v2/user/me': () => ({ status: 200, body: adminProfile }),
      'GET /v2/admin/professionals/status/count': () => ({ status: 500, body: { code: 'GENERIC_ERROR' } }),
    });
    renderApp('/', { token: 'tok-admin' });
    const alerts = await screen.findAllByRole('alert');
    expect(alerts).toHaveLength(1);
    const alert = alerts[0]!;
    expect(alert.textContent).toContain('Error');
    expect(alert.textContent).toContain('An error occurred, try again later');
    // A 500 is not retried (that would be six calls): the sidebar asks once, and the home screen asks
    // once more only when its code arrives after that answer (a new observer refetches a failed query).
    expect(api.calls.filter((c) => c.url.endsWith('status/count')).length).toBeLessThanOrEqual(2);
  });

  it('fall back to the generic support message for an unknown code', async () => {
    fakeApi({
      'GET /v2/user/me': () => ({ status: 200, body: adminProfile }),
      'GET /v2/admin/professionals/status/count': () => ({ status: 409, body: { code: 'SOMETHING_NEW' } }),
    });
    renderApp('/', { token: 'tok-admin' });
    const message = await screen.findByText('Something went wrong. Try again or contact our support');
    expect(message.closest('[role="alert"]')).not.toBeNull();
  });
});

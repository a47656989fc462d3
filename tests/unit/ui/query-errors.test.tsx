// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react';
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

// Issue 14: one place per error — a screen that shows a failure itself raises no toast as well.
describe('errors a screen shows itself', () => {
  const alertTexts = async () => {
    // Give a toast the time to appear if one were coming.
    await new Promise((resolve) => setTimeout(resolve, 50));
    return screen.queryAllByRole('alert').map((alert) => alert.textContent);
  };

  it('a missing user: the page says so, once, in the words of its code', async () => {
    fakeApi({
      'GET /v2/user/me': () => ({ status: 200, body: adminProfile }),
      'GET /v2/admin/users/00000000-0000-4000-8000-000000000000': () => ({
        status: 404,
        body: { code: 'USER_NOT_FOUND' },
      }),
    });
    renderApp('/customers/00000000-0000-4000-8000-000000000000', { token: 'tok-admin' });
    await screen.findByText('User not found');
    expect(await alertTexts()).toEqual(['User not found']);
  });

  it('a list that fails: its table says why (not "no records"), and no toast', async () => {
    fakeApi({
      'GET /v2/user/me': () => ({ status: 200, body: adminProfile }),
      'GET /v2/admin/users': () => ({ status: 400, body: { code: 'VALIDATION_FAILED' } }),
      'GET /v2/static-data/country': () => ({ status: 200, body: [] }),
    });
    renderApp('/customers', { token: 'tok-admin' });
    const inTable = await waitFor(() => {
      const alert = document.querySelector('.data-table-status[role="alert"]');
      if (!alert) throw new Error('no error in the table yet');
      return alert;
    });
    expect(await alertTexts()).toEqual([inTable.textContent]);
    expect(screen.queryByText('No records found')).toBeNull();
  });
});

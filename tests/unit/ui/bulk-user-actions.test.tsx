// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { UserSummary } from '../../../src/api/users';
import { rita } from '../../fixtures/users';
import { adminProfile, clearCookies, fakeApi } from './fake-api';
import { fillJsdomGaps, layOutTables } from './jsdom-gaps';
import { renderApp } from './render-app';

beforeAll(fillJsdomGaps);
layOutTables();
afterEach(() => {
  toast.remove();
  cleanup();
  clearCookies();
  vi.unstubAllGlobals();
});

const customer = (n: number, overrides: Partial<UserSummary> = {}): UserSummary => ({
  ...rita,
  id: `00000000-0000-4000-8000-00000000000${n}`,
  role: 'CUSTOMER',
  name: `Cliente ${n}`,
  fullName: `Cliente ${n}`,
  email: `cliente${n}@example.pt`,
  collegeNumber: null,
  ...overrides,
});
const ana = customer(1);
const bruno = customer(2);
const carla = customer(3, { userDisabled: true, status: 'DISABLED' });

describe('bulk actions on a selection of users (issue 14)', () => {
  it('disables the selected users it applies to, one request each, and reports a refusal row by row', async () => {
    const api = fakeApi({
      'GET /v2/user/me': () => ({ status: 200, body: adminProfile }),
      'GET /v2/admin/users': () => ({
        status: 200,
        body: { items: [ana, bruno, carla], nextCursor: null, total: 3 },
      }),
      'GET /v2/static-data/country': () => ({ status: 200, body: [] }),
      [`POST /v2/admin/users/${ana.id}/disable`]: () => ({
        status: 200,
        body: { ...ana, userDisabled: true },
      }),
      [`POST /v2/admin/users/${bruno.id}/disable`]: () => ({
        status: 409,
        body: { code: 'USER_ALREADY_DISABLED' },
      }),
    });
    const user = userEvent.setup();
    renderApp('/customers', { token: 'tok-admin' });
    await screen.findByText('cliente3@example.pt');
    // Keyboard only: the three rows selected with j and x.
    await user.keyboard('jxjxjx');
    expect(screen.queryAllByText('3 selected')).toHaveLength(1);
    // Disable applies to the two enabled users, Enable to the disabled one.
    expect(screen.getByRole('button', { name: 'Enable (1)…' })).toHaveProperty('disabled', false);
    await user.click(screen.getByRole('button', { name: 'Disable (2)…' }));

    const dialog = await screen.findByRole('alertdialog', { name: 'Disable: 2 selected?' });
    expect(dialog.textContent).toContain('applies to 2 of the selected, one by one, and not to 1.');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());

    const disables = api.calls.filter((call) => call.method === 'POST');
    expect(disables.map((call) => [call.url, call.body])).toEqual([
      [`/v2/admin/users/${ana.id}/disable`, { disabled: true }],
      [`/v2/admin/users/${bruno.id}/disable`, { disabled: true }],
    ]);
    const result = await screen.findByTestId('bulk-result');
    expect(within(result).getByTestId(`bulk-${ana.id}`).textContent).toBe(
      'Cliente 1 <cliente1@example.pt>: done',
    );
    expect(within(result).getByTestId(`bulk-${bruno.id}`).textContent).toBe(
      'Cliente 2 <cliente2@example.pt>: This user is already disabled',
    );
    expect(await screen.findAllByText('Disable: 1 of 2 done')).toHaveLength(1);
    // The selection is cleared once the run is over.
    expect(screen.queryByText(/selected$/)).toBeNull();
  }, 30_000);
});

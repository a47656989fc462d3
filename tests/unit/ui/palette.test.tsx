// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { adminProfile, clearCookies, fakeApi } from './fake-api';
import { fillJsdomGaps } from './jsdom-gaps';
import { currentPath, renderApp } from './render-app';

beforeAll(fillJsdomGaps);

afterEach(() => {
  cleanup();
  clearCookies();
  vi.unstubAllGlobals();
});

async function signedInAtHome() {
  fakeApi({ 'GET /v2/user/me': () => ({ status: 200, body: adminProfile }) });
  const user = userEvent.setup();
  renderApp('/', { token: 'tok-admin' });
  await screen.findByRole('heading', { name: 'Home' });
  return user;
}

describe('command palette', () => {
  it('opens with Ctrl+K and navigates with the keyboard only', async () => {
    const user = await signedInAtHome();
    await user.keyboard('{Control>}k{/Control}');
    const input = await screen.findByPlaceholderText('Type a command or a screen…');
    expect(document.activeElement).toBe(input);
    await user.keyboard('Doctors verif');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(currentPath()).toBe('/professionals/verification'));
    expect(screen.queryByPlaceholderText('Type a command or a screen…')).toBeNull();
    expect(await screen.findAllByRole('heading', { name: 'Doctors verification' })).toHaveLength(1);
  });

  it('switches the language and remembers it in the cookie', async () => {
    const user = await signedInAtHome();
    await user.keyboard('{Control>}k{/Control}');
    await screen.findByPlaceholderText('Type a command or a screen…');
    await user.keyboard('Português{Enter}');
    expect(await screen.findAllByRole('heading', { name: 'Início' })).toHaveLength(1);
    expect(document.cookie).toContain('i18n_redirected=pt-PT');
    expect(document.documentElement.lang).toBe('pt-PT');
  });

  it('opens the shortcut help as a command', async () => {
    const user = await signedInAtHome();
    await user.keyboard('{Control>}k{/Control}');
    await screen.findByPlaceholderText('Type a command or a screen…');
    await user.keyboard('Keyboard shortcuts{Enter}');
    expect(await screen.findAllByRole('dialog', { name: 'Keyboard shortcuts' })).toHaveLength(1);
  });
});

describe('single-key shortcuts', () => {
  it('g then a letter goes to a screen, with a visible hint', async () => {
    const user = await signedInAtHome();
    await user.keyboard('g');
    expect(screen.getByRole('status').textContent).toContain('g');
    await user.keyboard('s');
    await waitFor(() => expect(currentPath()).toBe('/settlement'));
  });

  it('? opens the help listing the shortcuts, Escape closes it', async () => {
    const user = await signedInAtHome();
    await user.keyboard('?');
    const dialog = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    expect(dialog.textContent).toContain('g v');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog', { name: 'Keyboard shortcuts' })).toBeNull();
  });

  it('? on a list lists the table keys, by what each does; without a table they are not listed', async () => {
    fakeApi({
      'GET /v2/user/me': () => ({ status: 200, body: adminProfile }),
      'GET /v2/admin/users': () => ({ status: 200, body: { items: [], nextCursor: null, total: 0 } }),
      'GET /v2/static-data/country': () => ({ status: 200, body: [] }),
    });
    const user = userEvent.setup();
    renderApp('/customers', { token: 'tok-admin' });
    await screen.findByTestId('customers-total');
    await user.keyboard('?');
    const dialog = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    const lines = [...dialog.querySelectorAll('tr')].map((row) => row.textContent);
    // DESIGN §8's table keys, as an admin reads them.
    for (const line of [
      'j / ↓Next row',
      'k / ↑Previous row',
      'Enter / oOpen the row',
      'xSelect or unselect the row',
      'Shift xExtend the selection to this row',
      '/Search this list',
      'EscClear the search and the selection',
      'Ctrl/⌘ KOpen the command palette',
      '?Show this help',
    ])
      expect(lines).toContain(line);
    await user.keyboard('{Escape}');
    await user.keyboard('gh');
    await screen.findByRole('heading', { name: 'Home' });
    await user.keyboard('?');
    const atHome = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    expect(atHome.textContent).not.toContain('Next row');
  });

  it('the help keeps Tab inside it and gives focus back to where it was when it closes', async () => {
    const user = await signedInAtHome();
    const before = document.querySelector<HTMLButtonElement>('[aria-haspopup="menu"]')!;
    before.focus();
    await user.keyboard('?');
    const dialog = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    const close = screen.getByRole('button', { name: 'Close' });
    expect(document.activeElement).toBe(close);
    await user.tab();
    expect(dialog.contains(document.activeElement)).toBe(true);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.activeElement).toBe(before);
  });

  it('never fires inside inputs', async () => {
    fakeApi({});
    const user = userEvent.setup();
    renderApp('/login');
    await user.type(await screen.findByLabelText('Email'), 'gc?');
    expect(currentPath()).toBe('/login');
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

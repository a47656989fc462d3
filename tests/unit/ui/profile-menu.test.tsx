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

// The WAI-ARIA menu button: what the keyboard must do, written from the pattern, not from the code.
async function menuButtonAtHome() {
  fakeApi({ 'GET /v2/user/me': () => ({ status: 200, body: adminProfile }) });
  const user = userEvent.setup();
  renderApp('/', { token: 'tok-admin' });
  await screen.findByRole('heading', { name: 'Home' });
  const button = document.querySelector<HTMLButtonElement>('[aria-haspopup="menu"]')!;
  button.focus();
  return { user, button };
}

const focusedItem = () => document.activeElement?.textContent;

describe('the profile menu', () => {
  it('opens on Enter with focus on the first item; arrows, Home and End move; Esc closes back to the button', async () => {
    const { user, button } = await menuButtonAtHome();
    expect(button.getAttribute('aria-expanded')).toBe('false');
    await user.keyboard('{Enter}');
    const menu = await screen.findByRole('menu');
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(focusedItem()).toBe('Português');
    await user.keyboard('{ArrowDown}');
    expect(focusedItem()).toBe('Logout');
    await user.keyboard('{ArrowDown}');
    expect(focusedItem()).toBe('Português');
    await user.keyboard('{ArrowUp}');
    expect(focusedItem()).toBe('Logout');
    await user.keyboard('{Home}');
    expect(focusedItem()).toBe('Português');
    await user.keyboard('{End}');
    expect(focusedItem()).toBe('Logout');
    await user.keyboard('{Escape}');
    expect(menu.isConnected).toBe(false);
    expect(document.activeElement).toBe(button);
  });

  it('opens on ↑ at the last item; Tab away closes it', async () => {
    const { user, button } = await menuButtonAtHome();
    await user.keyboard('{ArrowUp}');
    await screen.findByRole('menu');
    expect(focusedItem()).toBe('Logout');
    await user.tab();
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
    expect(button.getAttribute('aria-expanded')).toBe('false');
  });

  it('runs the item on Enter: the language changes and focus is back on the button', async () => {
    const { user, button } = await menuButtonAtHome();
    await user.keyboard('{ArrowDown}{Enter}');
    expect(await screen.findAllByRole('heading', { name: 'Início' })).toHaveLength(1);
    expect(document.activeElement).toBe(button);
    await user.keyboard('{ArrowUp}{Enter}');
    // Logout signs out and lands on the login screen.
    await waitFor(() => expect(currentPath()).toBe('/login'));
  }, 30_000); // loads the Portuguese strings' chunk: slow on a loaded machine
});

// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { adminProfile, clearCookies, fakeApi } from './fake-api';
import { fillJsdomGaps } from './jsdom-gaps';

/** The palette dialog's chunk, held back until the test lets it arrive (docs/decisions/0053). */
const chunk = {
  requested: 0,
  arrive: () => {},
  arrived: Promise.resolve(),
  /** The mocked import in flight: awaited after each test, so it cannot land in the next test's modules. */
  loading: Promise.resolve() as Promise<unknown>,
};

const PLACEHOLDER = 'Type a command or a screen…';

beforeAll(fillJsdomGaps);

beforeEach(() => {
  chunk.requested = 0;
  chunk.arrived = new Promise<void>((resolve) => {
    chunk.arrive = resolve;
  });
  // A fresh console each time, so the dialog's chunk is not already loaded by an earlier test.
  vi.resetModules();
  vi.doMock('../../../src/app/palette/Palette', (importOriginal) => {
    chunk.requested += 1;
    chunk.loading = chunk.arrived.then(() => importOriginal());
    return chunk.loading;
  });
});

afterEach(async () => {
  chunk.arrive();
  await chunk.loading;
  cleanup();
  clearCookies();
  vi.unstubAllGlobals();
});

async function signedInAtHome() {
  fakeApi({ 'GET /v2/user/me': () => ({ status: 200, body: adminProfile }) });
  const user = userEvent.setup();
  const { renderApp, currentPath } = await import('./render-app');
  renderApp('/', { token: 'tok-admin' });
  await screen.findByRole('heading', { name: 'Home' });
  return { user, currentPath };
}

const loadingFrame = () => screen.queryByRole('dialog', { name: 'Command palette', busy: true });

describe('the palette before its code has arrived', () => {
  it('is fetched once the page is idle, without a keystroke', async () => {
    await signedInAtHome();
    await waitFor(() => expect(chunk.requested).toBe(1));
    expect(screen.queryByPlaceholderText(PLACEHOLDER)).toBeNull();
    chunk.arrive();
    // Loaded but closed: nothing shows until Ctrl+K.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByPlaceholderText(PLACEHOLDER)).toBeNull();
    expect(loadingFrame()).toBeNull();
  });

  it('Ctrl+K, a query and Enter typed before it arrives run the command once it is here', async () => {
    const { user, currentPath } = await signedInAtHome();
    await user.keyboard('{Control>}k{/Control}');
    expect(loadingFrame()).toBeTruthy();
    await user.keyboard('Doctors verif{Enter}');
    expect(loadingFrame()?.textContent).toBe('Doctors verif');
    expect(currentPath()).toBe('/');
    expect(screen.queryByPlaceholderText(PLACEHOLDER)).toBeNull();

    chunk.arrive();
    await waitFor(() => expect(currentPath()).toBe('/professionals/verification'));
    expect(await screen.findAllByRole('heading', { name: 'Doctors verification' })).toHaveLength(1);
    expect(screen.queryByPlaceholderText(PLACEHOLDER)).toBeNull();
    expect(loadingFrame()).toBeNull();
  });

  it('keeps the keys from the page: shortcuts do not fire, the dialog opens with the text typed', async () => {
    const { user, currentPath } = await signedInAtHome();
    await user.keyboard('{Control>}k{/Control}');
    // `g s` would go to /settlement and `?` open the help if they reached the page.
    await user.keyboard('gs?{Backspace}{Backspace}{Backspace}Doctors');
    expect(loadingFrame()?.textContent).toBe('Doctors');

    chunk.arrive();
    const input = await screen.findByPlaceholderText(PLACEHOLDER);
    expect(document.activeElement).toBe(input);
    expect((input as HTMLInputElement).value).toBe('Doctors');
    expect(currentPath()).toBe('/');
    expect(screen.queryByRole('dialog', { name: 'Keyboard shortcuts' })).toBeNull();

    await user.keyboard(' verif{Enter}');
    await waitFor(() => expect(currentPath()).toBe('/professionals/verification'));
  });

  it('Escape before it arrives closes it, and the next Ctrl+K opens it empty', async () => {
    const { user } = await signedInAtHome();
    await user.keyboard('{Control>}k{/Control}Doc{Escape}');
    expect(loadingFrame()).toBeNull();

    chunk.arrive();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByPlaceholderText(PLACEHOLDER)).toBeNull();

    await user.keyboard('{Control>}k{/Control}');
    const input = await screen.findByPlaceholderText(PLACEHOLDER);
    expect((input as HTMLInputElement).value).toBe('');
  });

  it('Ctrl+K twice before it arrives leaves it closed', async () => {
    const { user } = await signedInAtHome();
    await user.keyboard('{Control>}k{/Control}{Control>}k{/Control}');
    expect(loadingFrame()).toBeNull();
    chunk.arrive();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByPlaceholderText(PLACEHOLDER)).toBeNull();
  });
});

// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { validateLogin } from '../../../src/features/login/validation';
import { adminProfile, clearCookies, fakeApi } from './fake-api';
import { currentPath, renderApp } from './render-app';

afterEach(() => {
  cleanup();
  clearCookies();
  vi.unstubAllGlobals();
});

const cookieToken = () => /(?:^|; )authorization=([^;]*)/.exec(document.cookie)?.[1] ?? null;

describe('validateLogin', () => {
  it('applies the required and email rules', () => {
    expect(validateLogin({ email: '', password: '' })).toEqual({
      email: 'validation.required',
      password: 'validation.required',
    });
    expect(validateLogin({ email: 'not-an-email', password: 'x' })).toEqual({ email: 'validation.email' });
    expect(validateLogin({ email: ' admin@example.com ', password: 'x' })).toEqual({});
  });
});

describe('login screen', () => {
  it('invites to log in and shows the rule messages without calling the server', async () => {
    const api = fakeApi({});
    const user = userEvent.setup();
    renderApp('/login');
    expect(await screen.findAllByText('Log in to your admin account')).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(screen.getAllByText('This is required')).toHaveLength(2);
    await user.type(screen.getByLabelText('Email'), 'admin@');
    expect(screen.queryAllByText('Incorrect email format')).toHaveLength(1);
    expect(api.calls.filter((c) => c.url.includes('user/login'))).toHaveLength(0);
    expect(cookieToken()).toBeNull();
  });

  it('shows the server failure message and creates no session', async () => {
    fakeApi({ 'POST /v2/user/login': () => ({ status: 401, body: { code: 'EMAIL_OR_PASSWORD_INVALID' } }) });
    const user = userEvent.setup();
    renderApp('/login');
    await user.type(await screen.findByLabelText('Email'), 'admin@example.com');
    await user.type(screen.getByLabelText('Password'), 'wrong-password');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Email or password is invalid or user not allowed',
    );
    expect(cookieToken()).toBeNull();
    expect(currentPath()).toBe('/login');
    // A new attempt stopped by a field rule shows that rule alone, not the old server answer beside it.
    await user.clear(screen.getByLabelText('Password'));
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(screen.queryAllByText('This is required')).toHaveLength(1);
    expect(screen.queryByText('Email or password is invalid or user not allowed')).toBeNull();
  });

  it('submits once, leaves the token to the server and honours redirectPath', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const api = fakeApi({
      'POST /v2/user/login': () => ({ status: 200, body: { token: 'tok-abc', user: adminProfile } }),
    });
    const realFetch = globalThis.fetch;
    vi.stubGlobal('fetch', async (input: string, init?: RequestInit) => {
      if (String(input).includes('user/login')) await gate;
      return realFetch(input, init);
    });
    const user = userEvent.setup();
    renderApp('/login?redirectPath=%2Fsepa');
    await user.type(await screen.findByLabelText('Email'), 'admin@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct-horse');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    const pending = screen.getByRole('button', { name: 'Logging in…' }) as HTMLButtonElement;
    expect(pending.disabled).toBe(true);
    await user.click(pending);
    release();
    await waitFor(() => expect(currentPath()).toBe('/sepa'));
    const logins = api.calls.filter((c) => c.url.includes('user/login'));
    expect(logins).toHaveLength(1);
    expect(logins[0]?.body).toEqual({ email: 'admin@example.com', password: 'correct-horse' });
    // The server sets the session cookie (HttpOnly): the console writes no cookie of its own.
    expect(cookieToken()).toBeNull();
    expect(await screen.findAllByRole('heading', { name: 'SEPA' })).toHaveLength(1);
  });
});

describe('guards', () => {
  it('sends a signed-out visitor to login with the path to come back to', async () => {
    fakeApi({});
    renderApp('/professionals/verification?x=1');
    await waitFor(() =>
      expect(currentPath()).toBe(
        `/login?redirectPath=${encodeURIComponent('/professionals/verification?x=1')}`,
      ),
    );
  });

  it('treats a user without admin data as signed out', async () => {
    fakeApi({ 'GET /v2/user/me': () => ({ status: 200, body: { ...adminProfile, adminData: null } }) });
    renderApp('/customers', { token: 'tok-customer' });
    await waitFor(() => expect(currentPath()).toBe('/login?redirectPath=%2Fcustomers'));
  });

  it('keeps a signed-in admin out of login and shows the badges', async () => {
    fakeApi({ 'GET /v2/user/me': () => ({ status: 200, body: adminProfile }) });
    renderApp('/login', { token: 'tok-admin' });
    await waitFor(() => expect(currentPath()).toBe('/'));
    expect((await screen.findByTestId('badge-professionalsVerification')).textContent).toBe('7');
    expect(screen.getByTestId('badge-professionalsDisabled').textContent).toBe('3');
    expect(document.title).toBe('Home Admin Panel - v2');
  });

  it('clears the session on a 401 and records where the admin was', async () => {
    fakeApi({
      'GET /v2/user/me': () => ({ status: 200, body: adminProfile }),
      'GET /v2/admin/professionals/status/count': () => ({ status: 401, body: { code: 'UNAUTHORIZED' } }),
    });
    renderApp('/sepa', { token: 'tok-expired' });
    await waitFor(() => expect(currentPath()).toBe('/login?redirectPath=%2Fsepa'));
  });

  it('signs out even when the server fails the logout call, and sends it once', async () => {
    let logoutAnswers = 0;
    const api = fakeApi({
      'GET /v2/user/me': () => ({ status: 200, body: adminProfile }),
      // A second call would mean the failure signed the admin back in: it is held, so the test ends.
      'POST /v2/user/logout': () =>
        logoutAnswers++ === 0 ? { status: 500, body: { code: 'INTERNAL_ERROR' } } : new Promise(() => {}),
    });
    renderApp('/logout', { token: 'tok-admin' });
    await waitFor(() => expect(currentPath()).toBe('/login'));
    expect(await screen.findAllByText('Log in to your admin account')).toHaveLength(1);
    const logouts = api.calls.filter((c) => c.url.includes('user/logout'));
    expect(logouts).toHaveLength(1);
    // The browser's session cookie carries the session; the console sends no token of its own.
    expect(logouts[0]?.headers.authorization).toBeUndefined();
  });

  it('shows the 404 page for unknown routes', async () => {
    fakeApi({});
    renderApp('/no/such/page');
    expect(await screen.findAllByRole('heading', { name: 'This page could not be found' })).toHaveLength(1);
    expect(screen.queryAllByText('404')).toHaveLength(1);
    expect(screen.getByRole('link', { name: 'Back to the home page' }).getAttribute('href')).toBe('/');
  });
});

describe('login focus', () => {
  it('puts the caret in the e-mail field on load', async () => {
    fakeApi({});
    renderApp('/login');
    const email = await screen.findByLabelText('Email');
    await waitFor(() => expect(document.activeElement).toBe(email));
  });
});

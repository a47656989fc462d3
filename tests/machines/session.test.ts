import { expect } from 'vitest';
import { NOT_ALLOWED_CODE, type Profile, sessionMachine } from '../../machines/session';
import { adminProfile } from '../fixtures/profiles';
import { describeModel, type Expected, type ModelEvent, type Observed } from './model';

/**
 * The session as the specification (§4 Session, § authenticated guard) and docs/decisions/0020 and
 * 0126 describe it, written without reading the machine. The token is the server's HttpOnly cookie:
 * the console never holds it, so every load asks the server who is signed in.
 */

const admin: Profile = adminProfile;
const customer: Profile = { ...admin, selectedRole: 'CUSTOMER', adminData: null };
const CREDENTIALS = { email: 'admin@example.com', password: 'secret-pass' };
const CAME_FROM = '/customers?q=x';

interface SessionExpected extends Expected {
  user: Profile | null;
  /** The code the login screen explains. */
  loginError: string | null;
  /** Where a 401 interrupted the admin. */
  redirectPath: string | null;
}

const signedOut = (e: SessionExpected): SessionExpected => ({ ...e, state: 'loggedOut', user: null });
/** Any 401 clears the session and records where the admin was, whatever was happening. */
const unauthorized = (e: SessionExpected, ev: ModelEvent): SessionExpected => ({
  ...signedOut(e),
  redirectPath: ev.path as string,
});
const isAdmin = (profile: Profile) => profile.adminData !== null;

/** What every state shows beyond its name: the session's user, the login screen's inputs. */
function looks(authenticated: boolean) {
  return ({ snapshot }: Observed<undefined>, e: SessionExpected) => {
    expect(snapshot.hasTag('authenticated'), 'guards let the admin in').toBe(authenticated);
    expect(snapshot.context, 'no token in the console').not.toHaveProperty('token');
    expect(snapshot.context.user, 'user').toEqual(e.user);
    expect(snapshot.context.loginError, 'login screen error').toBe(e.loginError);
    expect(snapshot.context.redirectPath, 'redirect path').toBe(e.redirectPath);
  };
}

describeModel<undefined, undefined, SessionExpected>({
  name: 'session',
  machine: sessionMachine,
  starts: [{ name: 'page load', input: undefined }],
  events: {
    login: { type: 'session.login', ...CREDENTIALS },
    logout: { type: 'session.logout' },
    '401': { type: 'session.unauthorized', path: CAME_FROM },
    'me: admin': { type: 'xstate.done.actor.fetchCurrentUser', output: admin },
    'me: customer': { type: 'xstate.done.actor.fetchCurrentUser', output: customer },
    'me: 401': {
      type: 'xstate.error.actor.fetchCurrentUser',
      error: { status: 401, code: 'UNAUTHORIZED' },
    },
    'me: 403': { type: 'xstate.error.actor.fetchCurrentUser', error: { status: 403, code: 'FORBIDDEN' } },
    // What the browser's abort looks like when the admin leaves or reloads during the check.
    'me: aborted': {
      type: 'xstate.error.actor.fetchCurrentUser',
      error: { status: 0, code: null, cause: new TypeError('Failed to fetch') },
    },
    'me: 503': {
      type: 'xstate.error.actor.fetchCurrentUser',
      error: { status: 503, code: 'SERVICE_UNAVAILABLE' },
    },
    'login: admin': { type: 'xstate.done.actor.login', output: { token: 'tok-new', user: admin } },
    'login: customer': { type: 'xstate.done.actor.login', output: { token: 'tok-cust', user: customer } },
    'login: wrong password': {
      type: 'xstate.error.actor.login',
      error: { code: 'EMAIL_OR_PASSWORD_INVALID' },
    },
    'login: throttled': { type: 'xstate.error.actor.login', error: { code: 'TOO_MANY_ATTEMPTS' } },
    'login: offline': { type: 'xstate.error.actor.login', error: new TypeError('Failed to fetch') },
    'logout: ok': { type: 'xstate.done.actor.logout', output: undefined },
    'logout: 401': { type: 'xstate.error.actor.logout', error: { code: 'UNAUTHORIZED' } },
  },
  serializeState: (s) =>
    JSON.stringify({
      value: s.value,
      user: s.context.user?.user.id ?? null,
      loginError: s.context.loginError,
      redirectPath: s.context.redirectPath,
    }),
  actors: ['fetchCurrentUser', 'login', 'logout'],
  world: () => ({ world: undefined }),
  // On load the current user is fetched: only the server knows whether the browser's cookie is live.
  initial: () => ({
    state: 'loadingUser',
    requests: [{ actor: 'fetchCurrentUser', input: undefined }],
    user: null,
    loginError: null,
    redirectPath: null,
  }),
  transitions: {
    loadingUser: {
      // Only a user with admin data gets in; anyone else, or a refused token, clears the session.
      'xstate.done.actor.fetchCurrentUser': (e, ev) =>
        isAdmin(ev.output as Profile)
          ? { ...e, state: 'loggedIn', user: ev.output as Profile }
          : signedOut(e),
      // A check that got no verdict on the session (aborted by leaving the page, offline, server
      // down) shows the login screen with the error; the server's cookie is untouched, so a reload
      // resumes the session.
      'xstate.error.actor.fetchCurrentUser': (e, ev) => {
        const { status, code } = ev.error as { status: number; code: string | null };
        if (status === 401 || status === 403) return signedOut(e);
        return { ...signedOut(e), loginError: code ?? 'GENERIC_ERROR' };
      },
      'session.unauthorized': unauthorized,
    },
    loggedOut: {
      'session.login': (e, ev) => ({
        ...e,
        state: 'loggingIn',
        loginError: null,
        requests: [...e.requests, { actor: 'login', input: { email: ev.email, password: ev.password } }],
      }),
      'session.unauthorized': unauthorized,
    },
    loggingIn: {
      // User set (the token stays in the server's cookie); a profile without admin data is refused
      // like a wrong password.
      'xstate.done.actor.login': (e, ev) => {
        const { user } = ev.output as { user: Profile };
        return isAdmin(user)
          ? { ...e, state: 'loggedIn', user, loginError: null }
          : { ...e, state: 'loggedOut', loginError: NOT_ALLOWED_CODE };
      },
      // The login screen explains the server's code; a failure without one is generic.
      'xstate.error.actor.login': (e, ev) => ({
        ...e,
        state: 'loggedOut',
        loginError: (ev.error as { code?: string }).code ?? 'GENERIC_ERROR',
      }),
      'session.unauthorized': unauthorized,
    },
    loggedIn: {
      'session.logout': (e) => ({
        ...e,
        state: 'loggingOut',
        requests: [...e.requests, { actor: 'logout', input: undefined }],
      }),
      'session.unauthorized': unauthorized,
    },
    loggingOut: {
      // The logout call is attempted, its errors are ignored: the session is cleared either way.
      'xstate.done.actor.logout': (e) => ({ ...signedOut(e), redirectPath: null }),
      'xstate.error.actor.logout': (e) => ({ ...signedOut(e), redirectPath: null }),
      'session.unauthorized': unauthorized,
    },
  },
  states: {
    loadingUser: looks(false),
    loggedOut: looks(false),
    loggingIn: looks(false),
    loggedIn: (observed, e) => {
      looks(true)(observed, e);
      // Only an admin is ever signed in (the `authenticated` guard of the specification).
      expect(observed.snapshot.context.user?.adminData).toEqual({ permissions: [] });
    },
    // The admin is out as soon as they ask; the server ends the session and clears its cookie.
    loggingOut: looks(false),
  },
});

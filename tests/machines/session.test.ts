import { expect } from 'vitest';
import { NOT_ALLOWED_CODE, type Profile, type SessionInput, sessionMachine } from '../../machines/session';
import { adminProfile } from '../fixtures/profiles';
import { describeModel, type Expected, type ModelEvent, type Observed } from './model';

/**
 * The session as the specification (§4 Session, § authenticated guard) and docs/decisions/0020
 * describe it, written without reading the machine.
 */

const admin: Profile = adminProfile;
const customer: Profile = { ...admin, selectedRole: 'CUSTOMER', adminData: null };
const CREDENTIALS = { email: 'admin@example.com', password: 'secret-pass' };
const CAME_FROM = '/customers?q=x';

interface SessionExpected extends Expected {
  /** The `authorization` cookie, as the console's cookie actions leave it. */
  cookie: string | null;
  /** The token the session holds (sent on logout). */
  token: string | null;
  user: Profile | null;
  /** The code the login screen explains. */
  loginError: string | null;
  /** Where a 401 interrupted the admin. */
  redirectPath: string | null;
}

type World = { cookie: string | null };

const signedOut = (e: SessionExpected): SessionExpected => ({
  ...e,
  state: 'loggedOut',
  cookie: null,
  token: null,
  user: null,
});
/** Any 401 clears the session and records where the admin was, whatever was happening. */
const unauthorized = (e: SessionExpected, ev: ModelEvent): SessionExpected => ({
  ...signedOut(e),
  redirectPath: ev.path as string,
});
const isAdmin = (profile: Profile) => profile.adminData !== null;

/** What every state shows beyond its name: the cookie, the session's user, the login screen's inputs. */
function looks(authenticated: boolean) {
  return ({ world, snapshot }: Observed<World>, e: SessionExpected) => {
    expect(world.cookie, 'authorization cookie').toBe(e.cookie);
    expect(snapshot.hasTag('authenticated'), 'guards let the admin in').toBe(authenticated);
    expect(snapshot.context.token, 'token').toBe(e.token);
    expect(snapshot.context.user, 'user').toEqual(e.user);
    expect(snapshot.context.loginError, 'login screen error').toBe(e.loginError);
    expect(snapshot.context.redirectPath, 'redirect path').toBe(e.redirectPath);
  };
}

describeModel<SessionInput, World, SessionExpected>({
  name: 'session',
  machine: sessionMachine,
  starts: [
    { name: 'no cookie', input: { token: null } },
    { name: 'cookie tok-cookie', input: { token: 'tok-cookie' } },
  ],
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
      token: s.context.token,
      user: s.context.user?.user.id ?? null,
      loginError: s.context.loginError,
      redirectPath: s.context.redirectPath,
    }),
  actors: ['fetchCurrentUser', 'login', 'logout'],
  world: (input) => {
    const world: World = { cookie: input.token };
    return {
      world,
      actions: {
        persistToken: (_: unknown, params: { token: string }) => {
          world.cookie = params.token;
        },
        forgetToken: () => {
          world.cookie = null;
        },
      },
    };
  },
  // On load, a cookie means the current user is fetched with it; no cookie means signed out.
  initial: ({ token }) => ({
    state: token ? 'loadingUser' : 'loggedOut',
    requests: token ? [{ actor: 'fetchCurrentUser', input: { token } }] : [],
    cookie: token,
    token,
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
      // A check that got no verdict on the token (aborted by leaving the page, offline, server down)
      // shows the login screen but keeps the cookie, so a reload resumes the session.
      'xstate.error.actor.fetchCurrentUser': (e, ev) => {
        const { status, code } = ev.error as { status: number; code: string | null };
        if (status === 401 || status === 403) return signedOut(e);
        return { ...signedOut(e), cookie: e.cookie, loginError: code ?? 'GENERIC_ERROR' };
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
      // Token saved, user set; a profile without admin data is refused like a wrong password.
      'xstate.done.actor.login': (e, ev) => {
        const { token, user } = ev.output as { token: string; user: Profile };
        return isAdmin(user)
          ? { ...e, state: 'loggedIn', token, cookie: token, user, loginError: null }
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
        requests: [...e.requests, { actor: 'logout', input: { token: e.token } }],
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
      expect(observed.world.cookie).not.toBeNull();
    },
    // The admin is out as soon as they ask; the cookie goes once the server has answered.
    loggingOut: looks(false),
  },
});

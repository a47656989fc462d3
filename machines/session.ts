import { assign, fromPromise, setup } from 'xstate';

import type { z } from 'zod';
import type { credentialsSchema, loginResultSchema, profileSchema } from '../contract/session';

/** The signed-in user as `user/me` and `user/login` answer it (contract/session.ts). */
export type Profile = z.infer<typeof profileSchema>;
export type Locale = Profile['selectedLocale'];
export type Credentials = z.input<typeof credentialsSchema>;
export type LoginResult = z.infer<typeof loginResultSchema>;

/**
 * The console never holds the session's token: the server keeps it in an HttpOnly cookie the browser
 * sends by itself (docs/decisions/0126). The console only learns who is signed in, from `user/me` on
 * load and from the login answer.
 */
export interface SessionContext {
  user: Profile | null;
  /** Server error code of the last failed login, shown on the login screen. */
  loginError: string | null;
  /** Where a 401 interrupted the admin, so sign-in can bring them back. */
  redirectPath: string | null;
}

export type SessionEvent =
  | { type: 'session.login'; email: string; password: string }
  | { type: 'session.logout' }
  | { type: 'session.unauthorized'; path: string };

/** The login failure code used when a non-admin profile slips through. */
export const NOT_ALLOWED_CODE = 'EMAIL_OR_PASSWORD_INVALID';

export function errorCodeOf(error: unknown): string {
  if (typeof error === 'object' && error !== null && 'code' in error) {
    const code = (error as { code: unknown }).code;
    if (typeof code === 'string' && code.length > 0) return code;
  }
  return 'GENERIC_ERROR';
}

/**
 * Whether a failed session check means the server refused the token (401, or 403 for a user who is
 * no longer an administrator). Anything else — no answer because the page is being left or reloaded
 * (the browser aborts the request), the network is down, the server failed — says nothing about the
 * session: the admin is shown the login screen with the error, and a reload resumes the session.
 */
export function refusesToken(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('status' in error)) return false;
  const { status } = error as { status: unknown };
  return status === 401 || status === 403;
}

const notProvided = (name: string) => () => {
  throw new Error(`session machine: actor "${name}" must be provided`);
};

export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
  },
  actors: {
    login: fromPromise<LoginResult, Credentials>(notProvided('login')),
    logout: fromPromise<void, void>(notProvided('logout')),
    fetchCurrentUser: fromPromise<Profile, void>(notProvided('fetchCurrentUser')),
  },
  actions: {
    clearSession: assign({ user: null }),
  },
  guards: {
    refusesToken: (_, params: { error: unknown }) => refusesToken(params.error),
    isAdmin: (_, params: { profile: Profile | null | undefined }) => Boolean(params.profile?.adminData),
  },
}).createMachine({
  id: 'session',
  // Whether the browser holds a live session cookie only the server can tell: ask it on every load.
  initial: 'loadingUser',
  context: { user: null, loginError: null, redirectPath: null },
  on: {
    'session.unauthorized': {
      target: '.loggedOut',
      actions: ['clearSession', assign({ redirectPath: ({ event }) => event.path })],
    },
  },
  states: {
    loadingUser: {
      invoke: {
        id: 'fetchCurrentUser',
        src: 'fetchCurrentUser',
        onDone: [
          {
            guard: { type: 'isAdmin', params: ({ event }) => ({ profile: event.output }) },
            target: 'loggedIn',
            actions: assign({ user: ({ event }) => event.output }),
          },
          { target: 'loggedOut', actions: 'clearSession' },
        ],
        onError: [
          {
            guard: { type: 'refusesToken', params: ({ event }) => ({ error: event.error }) },
            target: 'loggedOut',
            actions: 'clearSession',
          },
          // No verdict on the session: a reload (or signing in again) resumes it.
          {
            target: 'loggedOut',
            actions: ['clearSession', assign({ loginError: ({ event }) => errorCodeOf(event.error) })],
          },
        ],
      },
    },
    loggedOut: {
      tags: ['loggedOut'],
      on: {
        'session.login': {
          target: 'loggingIn',
          actions: assign({ loginError: null }),
        },
      },
    },
    loggingIn: {
      tags: ['loggedOut', 'pending'],
      invoke: {
        id: 'login',
        src: 'login',
        input: ({ event }) =>
          event.type === 'session.login'
            ? { email: event.email, password: event.password }
            : { email: '', password: '' },
        onDone: [
          {
            guard: { type: 'isAdmin', params: ({ event }) => ({ profile: event.output.user }) },
            target: 'loggedIn',
            actions: [assign({ user: ({ event }) => event.output.user, loginError: null })],
          },
          { target: 'loggedOut', actions: assign({ loginError: NOT_ALLOWED_CODE }) },
        ],
        onError: {
          target: 'loggedOut',
          actions: assign({ loginError: ({ event }) => errorCodeOf(event.error) }),
        },
      },
    },
    loggedIn: {
      tags: ['authenticated'],
      on: { 'session.logout': 'loggingOut' },
    },
    loggingOut: {
      tags: ['pending'],
      invoke: {
        id: 'logout',
        src: 'logout',
        // The server call is best effort (it revokes the session and clears the cookie): the console's
        // session ends whatever it answers.
        onDone: { target: 'loggedOut', actions: ['clearSession', assign({ redirectPath: null })] },
        onError: { target: 'loggedOut', actions: ['clearSession', assign({ redirectPath: null })] },
      },
    },
  },
});

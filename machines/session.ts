import { assign, fromPromise, setup } from 'xstate';

import type { z } from 'zod';
import type { credentialsSchema, loginResultSchema, profileSchema } from '../contract/session';

/** The signed-in user as `user/me` and `user/login` answer it (contract/session.ts). */
export type Profile = z.infer<typeof profileSchema>;
export type Locale = Profile['selectedLocale'];
export type Credentials = z.input<typeof credentialsSchema>;
export type LoginResult = z.infer<typeof loginResultSchema>;

export interface SessionContext {
  token: string | null;
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

export interface SessionInput {
  /** Token read from the `authorization` cookie at load time, if any. */
  token: string | null;
}

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
 * token, so the cookie must survive it: clearing it signed the admin out on a quick Back or reload.
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
    input: {} as SessionInput,
  },
  actors: {
    login: fromPromise<LoginResult, Credentials>(notProvided('login')),
    logout: fromPromise<void, { token: string | null }>(notProvided('logout')),
    fetchCurrentUser: fromPromise<Profile, { token: string }>(notProvided('fetchCurrentUser')),
  },
  actions: {
    // Cookie writes live outside the machine (the console provides them) so tests stay pure.
    persistToken: (_, _params: { token: string }) => {},
    forgetToken: () => {},
    clearSession: assign({ token: null, user: null }),
  },
  guards: {
    hasToken: ({ context }) => context.token !== null,
    refusesToken: (_, params: { error: unknown }) => refusesToken(params.error),
    isAdmin: (_, params: { profile: Profile | null | undefined }) => Boolean(params.profile?.adminData),
  },
}).createMachine({
  id: 'session',
  initial: 'restoring',
  context: ({ input }) => ({ token: input.token, user: null, loginError: null, redirectPath: null }),
  on: {
    'session.unauthorized': {
      target: '.loggedOut',
      actions: ['clearSession', 'forgetToken', assign({ redirectPath: ({ event }) => event.path })],
    },
  },
  states: {
    restoring: {
      always: [{ guard: 'hasToken', target: 'loadingUser' }, { target: 'loggedOut' }],
    },
    loadingUser: {
      invoke: {
        id: 'fetchCurrentUser',
        src: 'fetchCurrentUser',
        input: ({ context }) => ({ token: context.token ?? '' }),
        onDone: [
          {
            guard: { type: 'isAdmin', params: ({ event }) => ({ profile: event.output }) },
            target: 'loggedIn',
            actions: assign({ user: ({ event }) => event.output }),
          },
          { target: 'loggedOut', actions: ['clearSession', 'forgetToken'] },
        ],
        onError: [
          {
            guard: { type: 'refusesToken', params: ({ event }) => ({ error: event.error }) },
            target: 'loggedOut',
            actions: ['clearSession', 'forgetToken'],
          },
          // The cookie stays: a reload (or signing in again) resumes the session.
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
            actions: [
              assign({
                token: ({ event }) => event.output.token,
                user: ({ event }) => event.output.user,
                loginError: null,
              }),
              { type: 'persistToken', params: ({ event }) => ({ token: event.output.token }) },
            ],
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
        input: ({ context }) => ({ token: context.token }),
        // The server call is best effort: the local session ends whatever it answers.
        onDone: {
          target: 'loggedOut',
          actions: ['clearSession', 'forgetToken', assign({ redirectPath: null })],
        },
        onError: {
          target: 'loggedOut',
          actions: ['clearSession', 'forgetToken', assign({ redirectPath: null })],
        },
      },
    },
  },
});

import { createActorContext } from '@xstate/react';
import { fromPromise } from 'xstate';
import { type Credentials, type LoginResult, type Profile, sessionMachine } from '../../machines/session';
import { AUTH_COOKIE } from '../api/http';
import { fetchMe, login, logout } from '../api/session';
import { removeCookie, writeCookie } from '../lib/cookies';

const AUTH_COOKIE_MAX_AGE = 30 * 24 * 60 * 60;

export const sessionLogic = sessionMachine.provide({
  actors: {
    login: fromPromise<LoginResult, Credentials>(({ input }) => login(input)),
    logout: fromPromise<void, { token: string | null }>(({ input }) => logout(input.token)),
    fetchCurrentUser: fromPromise<Profile, { token: string }>(({ input }) => fetchMe(input.token)),
  },
  actions: {
    persistToken: (_, { token }) => writeCookie(AUTH_COOKIE, token, { maxAgeSeconds: AUTH_COOKIE_MAX_AGE }),
    forgetToken: () => removeCookie(AUTH_COOKIE),
  },
});

export const SessionContext = createActorContext(sessionLogic);

/** Only same-origin paths, so a crafted link cannot bounce a fresh sign-in to another site. */
export function safeRedirectPath(raw: string | null | undefined): string {
  if (!raw?.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return '/';
  if (raw === '/login' || raw.startsWith('/login?') || raw === '/logout') return '/';
  return raw;
}

export const loginHref = (path: string) =>
  path === '/' ? '/login' : `/login?redirectPath=${encodeURIComponent(path)}`;

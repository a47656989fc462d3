import { createActorContext } from '@xstate/react';
import { fromPromise } from 'xstate';
import { type Credentials, type LoginResult, type Profile, sessionMachine } from '../../machines/session';
import { fetchMe, login, logout } from '../api/session';

export const sessionLogic = sessionMachine.provide({
  actors: {
    login: fromPromise<LoginResult, Credentials>(({ input }) => login(input)),
    logout: fromPromise<void, void>(() => logout()),
    fetchCurrentUser: fromPromise<Profile, void>(() => fetchMe()),
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

import type { Credentials, LoginResult, Profile } from '../../machines/session';
import { prefetchRequest, request } from './http';

/**
 * The server answers the token too (for API clients) and sets the session cookie; the console ignores
 * the token: the browser sends the cookie, which no script here can read (docs/decisions/0126).
 */
export const login = (credentials: Credentials) =>
  request<LoginResult>('user/login', { method: 'post', data: credentials });

/** The server revokes the session and clears its cookie. */
export const logout = () => request<void>('user/logout', { method: 'post' });

export const fetchMe = () => request<Profile>('user/me');

/** `fetchMe`'s request, started before React's first render; the session machine takes its answer. */
export const prefetchMe = () => prefetchRequest('user/me');

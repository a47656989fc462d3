import type { Credentials, LoginResult, Profile } from '../../machines/session';
import { prefetchRequest, request } from './http';

export const login = (credentials: Credentials) =>
  request<LoginResult>('user/login', { method: 'post', data: credentials, token: null });

export const logout = (token: string | null) => request<void>('user/logout', { method: 'post', token });

export const fetchMe = (token: string) => request<Profile>('user/me', { token });

/** `fetchMe`'s request, started before React's first render; the session machine takes its answer. */
export const prefetchMe = (token: string) => prefetchRequest('user/me', undefined, token);

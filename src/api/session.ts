import type { Credentials, LoginResult, Profile } from '../../machines/session';
import { request } from './http';

export const login = (credentials: Credentials) =>
  request<LoginResult>('user/login', { method: 'post', data: credentials, token: null });

export const logout = (token: string | null) => request<void>('user/logout', { method: 'post', token });

export const fetchMe = (token: string) => request<Profile>('user/me', { token });

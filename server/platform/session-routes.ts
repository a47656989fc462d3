import { errorBodySchema } from '../../contract/common';
import { loginBodySchema, loginResultSchema, profileSchema } from '../../contract/session';
import { clearedSessionCookie, setSessionCookie } from '../http/auth';
import { clientAddressOf } from '../http/client-address';
import { type AppContext, now } from '../http/context';
import { unauthorized } from '../http/errors';
import type { RouteRegistry } from '../http/routes';
import { login, logout } from './login';
import { loadProfile } from './profiles';
import { refuse } from './refusal';

async function currentProfile(c: AppContext, userId: string) {
  const profile = await loadProfile(c.var.deps.db, userId);
  // The user row went away between the session check and now: the token is as good as dead.
  if (!profile) throw unauthorized();
  return profile;
}

export function registerSessionRoutes(routes: RouteRegistry): void {
  routes.add({
    method: 'post',
    path: '/v2/user/login',
    summary: 'Sign in as an administrator',
    tags: ['session'],
    auth: 'public',
    noStore: true,
    body: loginBodySchema,
    responses: {
      200: {
        description:
          'Signed in: the session cookie is set (HttpOnly, SameSite=Strict, Secure but in development) for the console; API clients send the token as `Authorization: Bearer <token>`',
        schema: loginResultSchema,
      },
      401: { description: 'Wrong e-mail or password, or not an administrator', schema: errorBodySchema },
      429: {
        description: 'Too many failed attempts for this e-mail or from this address; see Retry-After',
        schema: errorBodySchema,
      },
    },
    async handler(c, { body }) {
      const { db, config } = c.var.deps;
      const result = await login(db, body.email, body.password, clientAddressOf(c), now(c), config.session);
      if (result.kind === 'throttled')
        throw refuse('TOO_MANY_ATTEMPTS', { retryAfterSeconds: result.retryAfterSeconds });
      if (result.kind === 'invalid') throw refuse('EMAIL_OR_PASSWORD_INVALID');
      const user = await currentProfile(c, result.userId);
      setSessionCookie(c, result.token);
      return c.json({ token: result.token, user });
    },
  });

  routes.add({
    method: 'post',
    path: '/v2/user/logout',
    summary: 'End the session: revoke its token and clear the session cookie',
    tags: ['session'],
    auth: 'session',
    responses: { 204: { description: 'The token no longer works; the cookie is cleared' } },
    async handler(c) {
      await logout(c.var.deps.db, c.var.session, now(c));
      return c.body(null, 204, { 'Set-Cookie': clearedSessionCookie(c) });
    },
  });

  routes.add({
    method: 'get',
    path: '/v2/user/me',
    summary: 'The signed-in user',
    tags: ['session'],
    auth: 'session',
    responses: {
      200: { description: 'Profile; `adminData` is null for non-administrators', schema: profileSchema },
    },
    async handler(c) {
      return c.json(await currentProfile(c, c.var.session.userId));
    },
  });
}

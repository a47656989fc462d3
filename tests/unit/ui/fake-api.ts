import { vi } from 'vitest';

export { adminProfile } from '../../fixtures/profiles';

export interface FakeCall {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

type FakeAnswer = { status: number; body?: unknown };
/** An answer, or a promise of one to hold the response back. */
type Handler = (call: FakeCall) => FakeAnswer | Promise<FakeAnswer>;

/**
 * Whether the browser holds a session cookie (renderApp's `token`, standing for the HttpOnly cookie the
 * server sets at sign-in, which the console itself never reads or writes).
 */
const hasSessionCookie = () => document.cookie.split('; ').some((part) => part.startsWith('authorization='));

/**
 * Stubs `fetch` with a tiny route table keyed by "METHOD path"; unknown paths answer 404 like the API,
 * and `user/me` answers 401 like the API when the browser sends no session cookie.
 */
export function fakeApi(routes: Record<string, Handler>) {
  const calls: FakeCall[] = [];
  const defaults: Record<string, Handler> = {
    'GET /v2/locales': () => ({
      status: 200,
      body: [
        { id: 'pt-PT', enabled: true },
        { id: 'en-GB', enabled: true },
      ],
    }),
    'GET /v2/admin/professionals/status/count': () => ({
      status: 200,
      body: { EMAIL_VERIFIED: 7, DISABLED: 3 },
    }),
  };
  const fetchStub = vi.fn(async (input: string, init: RequestInit = {}) => {
    const url = String(input);
    const method = (init.method ?? 'GET').toUpperCase();
    const call: FakeCall = {
      method,
      url,
      headers: (init.headers ?? {}) as Record<string, string>,
      body: typeof init.body === 'string' ? JSON.parse(init.body) : init.body,
    };
    calls.push(call);
    const key = `${method} ${url.split('?')[0]}`;
    const handler =
      key === 'GET /v2/user/me' && !hasSessionCookie()
        ? () => ({ status: 401, body: { code: 'UNAUTHORIZED' } })
        : (routes[key] ?? defaults[key]);
    const { status, body } = handler ? await handler(call) : { status: 404, body: { code: 'NOT_FOUND' } };
    return new Response(body === undefined ? null : JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchStub);
  return { calls };
}

export function clearCookies() {
  for (const part of document.cookie.split('; ')) {
    const name = part.split('=')[0];
    // biome-ignore lint/suspicious/noDocumentCookie: jsdom has no Cookie Store API; the test sets the cookie a browser would hold
    if (name) document.cookie = `${name}=; Max-Age=0; Path=/`;
  }
}

/** The console's own cookies (the chosen language). Never the session: the server keeps that in an HttpOnly cookie no script can read (docs/decisions/0126). */
export interface CookieOptions {
  maxAgeSeconds: number;
  sameSite?: 'Lax' | 'Strict';
}

/** Cookies are Secure everywhere except the Vite dev server, which runs on plain http. */
const secureFlag = () => (import.meta.env.DEV ? '' : '; Secure');

export function readCookie(name: string): string | null {
  for (const part of document.cookie.split('; ')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq) === name) return decodeURIComponent(part.slice(eq + 1));
  }
  return null;
}

export function writeCookie(name: string, value: string, options: CookieOptions): void {
  // biome-ignore lint/suspicious/noDocumentCookie: Cookie Store API is async and missing in Firefox/Safari and jsdom
  document.cookie = `${name}=${encodeURIComponent(value)}; Max-Age=${options.maxAgeSeconds}; Path=/; SameSite=${options.sameSite ?? 'Lax'}${secureFlag()}`;
}

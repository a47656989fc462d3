// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { reloadOnce } from '../../../src/app/chunk-reload';
import { safeRedirectPath } from '../../../src/app/session';
import { detectLocale, initialLocale } from '../../../src/i18n/locales';
import { clearCookies } from './fake-api';

afterEach(() => clearCookies());

describe('reloadOnce', () => {
  it('reloads at most once a minute', () => {
    const store = new Map<string, string>();
    const storage = {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => store.set(k, v),
    };
    const reload = vi.fn();
    expect(reloadOnce(1_000_000, storage, reload)).toBe(true);
    expect(reloadOnce(1_030_000, storage, reload)).toBe(false);
    expect(reloadOnce(1_061_000, storage, reload)).toBe(true);
    expect(reload).toHaveBeenCalledTimes(2);
  });
});

describe('locale selection', () => {
  it('maps browser languages to supported locales, pt-PT by default', () => {
    expect(detectLocale(['en-US', 'pt-BR'])).toBe('en-GB');
    expect(detectLocale(['pt-BR'])).toBe('pt-PT');
    expect(detectLocale(['de-DE'])).toBe('pt-PT');
  });

  it('detects the browser language on / only, and remembers it', () => {
    expect(initialLocale('/customers', ['en-GB'])).toBe('pt-PT');
    expect(document.cookie).not.toContain('i18n_redirected');
    expect(initialLocale('/', ['en-GB'])).toBe('en-GB');
    expect(document.cookie).toContain('i18n_redirected=en-GB');
  });

  it('lets the cookie win over the browser', () => {
    document.cookie = 'i18n_redirected=pt-PT; Path=/';
    expect(initialLocale('/', ['en-GB'])).toBe('pt-PT');
  });
});

describe('safeRedirectPath', () => {
  it('keeps same-origin paths and refuses the rest', () => {
    expect(safeRedirectPath('/sepa?x=1')).toBe('/sepa?x=1');
    expect(safeRedirectPath('//evil.example')).toBe('/');
    expect(safeRedirectPath('https://evil.example')).toBe('/');
    expect(safeRedirectPath('/login?redirectPath=/x')).toBe('/');
    expect(safeRedirectPath(null)).toBe('/');
  });
});

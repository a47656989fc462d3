// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import { Component, createElement, type ReactNode, Suspense } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { detectLocale, initialLocale } from '../../../src/i18n/locales';
import { lazyScreen, reloadOnce, ScreenView } from '../../../src/kernel/chunk-reload';
import { safeRedirectPath } from '../../../src/kernel/session';
import { clearCookies } from './fake-api';

afterEach(() => {
  cleanup();
  clearCookies();
  sessionStorage.clear();
});

class Catch extends Component<{ children: ReactNode }, { error: Error | null }> {
  override state = { error: null as Error | null };
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  override render() {
    return this.state.error ? `caught ${this.state.error.message}` : this.props.children;
  }
}

const view = (screenDef: ReturnType<typeof lazyScreen>) =>
  createElement(
    Catch,
    null,
    createElement(
      Suspense,
      { fallback: 'suspended' },
      createElement(ScreenView, { screen: screenDef, fallback: 'loading' }),
    ),
  );

describe('lazy screens', () => {
  it('show the fallback while the code loads, then the screen, without suspending', async () => {
    let resolve: (module: { default: () => ReactNode }) => void = () => {};
    const loader = vi.fn(() => new Promise<{ default: () => ReactNode }>((r) => (resolve = r)));
    const screenDef = lazyScreen(loader);
    screenDef.preload();
    render(view(screenDef));
    expect(document.body.textContent).toBe('loading');
    await act(async () => resolve({ default: () => 'the screen' }));
    expect(document.body.textContent).toBe('the screen');
    expect(loader).toHaveBeenCalledTimes(1);
  });

  it('render at once when the code is already here', async () => {
    const screenDef = lazyScreen(async () => ({ default: () => 'ready' }));
    screenDef.preload();
    await act(async () => {});
    render(view(screenDef));
    expect(screen.queryAllByText('ready')).toHaveLength(1);
  });

  it('hand a failed load to the error boundary once a reload was already tried', async () => {
    sessionStorage.setItem('chunk-reload-at', String(Date.now()));
    const screenDef = lazyScreen(() => Promise.reject(new Error('chunk gone')));
    render(view(screenDef));
    expect(await screen.findAllByText('caught chunk gone')).toHaveLength(1);
  });
});

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
    // biome-ignore lint/suspicious/noDocumentCookie: jsdom has no Cookie Store API; the test sets the cookie a browser would hold
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

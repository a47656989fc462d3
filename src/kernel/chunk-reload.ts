import { type ComponentType, createElement, lazy, type ReactNode, useSyncExternalStore } from 'react';

const RELOAD_KEY = 'chunk-reload-at';
const RELOAD_WINDOW_MS = 60_000;

/**
 * A failed chunk usually means a new deployment replaced the files: reloading fetches the
 * new entry. At most once a minute, so a truly broken chunk reaches the error page instead of looping.
 */
export function reloadOnce(
  now = Date.now(),
  storage: Pick<Storage, 'getItem' | 'setItem'> = sessionStorage,
  reload: () => void = () => window.location.reload(),
): boolean {
  const last = Number(storage.getItem(RELOAD_KEY) ?? 0);
  if (last > 0 && now - last < RELOAD_WINDOW_MS) return false;
  storage.setItem(RELOAD_KEY, String(now));
  reload();
  return true;
}

/** A screen whose code is fetched on first use: render it with `<ScreenView>`. */
export interface LazyScreen {
  /** Starts loading the screen's code now, e.g. while the session is still being checked. */
  preload(): void;
  subscribe(onSettled: () => void): () => void;
  /** The screen once its code is here; after a failed load, a lazy component that rethrows the error. */
  current(): ComponentType | null;
}

export function lazyScreen(loader: () => Promise<{ default: ComponentType }>): LazyScreen {
  let loading: Promise<{ default: ComponentType }> | undefined;
  let loaded: ComponentType | null = null;
  const listeners = new Set<() => void>();
  const settle = (screen: ComponentType) => {
    loaded = screen;
    for (const listener of listeners) listener();
  };
  const load = () => {
    loading ??= loader().then(
      (module) => {
        settle(module.default);
        return module;
      },
      (error: unknown) => {
        if (reloadOnce()) return new Promise<never>(() => {});
        // React.lazy over the rejected promise throws the error during render, to the error boundary.
        settle(lazy(() => Promise.reject(error)));
        throw error;
      },
    );
    return loading;
  };
  return {
    preload: () => void load().catch(() => undefined),
    subscribe(onSettled) {
      listeners.add(onSettled);
      void load().catch(() => undefined);
      return () => listeners.delete(onSettled);
    },
    current: () => loaded,
  };
}

/**
 * Shows `fallback` as ordinary state while the screen's code loads, and renders the screen
 * synchronously once it is here. A bare `React.lazy` under `<Suspense>` would do the same visibly,
 * but React holds back a Suspense boundary's content for 300 ms after its fallback appeared
 * (FALLBACK_THROTTLE_MS), which delayed every list screen's first request by that much
 * (docs/decisions/0052). Keep a `<Suspense>` above it for the failed-load case.
 */
export function ScreenView({ screen, fallback }: { screen: LazyScreen; fallback: ReactNode }) {
  const Screen = useSyncExternalStore(screen.subscribe, screen.current);
  return Screen ? createElement(Screen) : fallback;
}

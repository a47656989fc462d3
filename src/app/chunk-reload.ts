import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

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

export interface LazyScreen extends LazyExoticComponent<ComponentType> {
  /** Starts loading the screen's code now, e.g. while the session is still being checked. */
  preload(): void;
}

export function lazyScreen(loader: () => Promise<{ default: ComponentType }>): LazyScreen {
  let loading: Promise<{ default: ComponentType }> | undefined;
  const load = () => {
    loading ??= loader().catch((error: unknown) => {
      if (reloadOnce()) return new Promise<never>(() => {});
      throw error;
    });
    return loading;
  };
  return Object.assign(lazy(load), {
    preload: () => {
      void load();
    },
  });
}

import { useEffect, useSyncExternalStore } from 'react';

/** One line of the `?` help: the keys as shown (`j / k`) and the locale key of what they do. */
export type ScreenKey = readonly [keys: string, labelKey: string];

// A module store rather than a context: the help dialog (shell) and the screens (features) both reach
// it through the kernel without a provider between them.
const sources = new Map<string, readonly ScreenKey[]>();
let snapshot: readonly ScreenKey[] = [];
const listeners = new Set<() => void>();

function publish() {
  // Two tables on one page list the same table keys once.
  const lines = new Map([...sources.values()].flat().map((line) => [line.join('\u0000'), line]));
  snapshot = [...lines.values()];
  for (const listener of listeners) listener();
}

/**
 * A screen lists its own keys while mounted, from the same table its handler uses, so `?` shows what
 * the current screen answers to (DESIGN §8). `keys` must be stable (module level or memoised); `source`
 * unique per mounted component (`useId()` where a component can be mounted twice).
 */
export function useScreenKeys(source: string, keys: readonly ScreenKey[]): void {
  useEffect(() => {
    sources.set(source, keys);
    publish();
    return () => {
      sources.delete(source);
      publish();
    };
  }, [source, keys]);
}

export function useCurrentScreenKeys(): readonly ScreenKey[] {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => snapshot,
  );
}

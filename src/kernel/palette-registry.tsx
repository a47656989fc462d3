import { createContext, type ReactNode, useContext, useEffect, useMemo, useState } from 'react';
import type { RankableCommand } from './palette-ranking';

export interface PaletteCommand extends RankableCommand {
  /** Translated name of what the command belongs to, shown beside it. */
  group: string;
  hint?: string;
  run(): void;
}

interface Registry {
  sources: ReadonlyMap<string, readonly PaletteCommand[]>;
  register(source: string, commands: readonly PaletteCommand[]): () => void;
  /** What is typed in the palette, so sources can offer commands built from it (an id, a name). */
  search: string;
  setSearch(search: string): void;
}

const RegistryContext = createContext<Registry | null>(null);

/** Screens add their own commands while mounted; later issues plug entity search and actions in here. */
export function PaletteRegistryProvider({ children }: { children: ReactNode }) {
  const [sources, setSources] = useState<ReadonlyMap<string, readonly PaletteCommand[]>>(new Map());
  const [search, setSearch] = useState('');
  const registry = useMemo<Registry>(
    () => ({
      sources,
      search,
      setSearch,
      register(source, commands) {
        setSources((prev) => new Map(prev).set(source, commands));
        return () =>
          setSources((prev) => {
            const next = new Map(prev);
            next.delete(source);
            return next;
          });
      },
    }),
    [sources, search],
  );
  return <RegistryContext.Provider value={registry}>{children}</RegistryContext.Provider>;
}

function useRegistry(): Registry {
  const registry = useContext(RegistryContext);
  if (!registry) throw new Error('palette registry missing');
  return registry;
}

export function useRegisterCommands(source: string, commands: readonly PaletteCommand[]): void {
  const { register } = useRegistry();
  // biome-ignore lint/correctness/useExhaustiveDependencies: `register` changes with every registration
  useEffect(() => register(source, commands), [source, commands]);
}

export function usePaletteSearch(): [string, (search: string) => void] {
  const { search, setSearch } = useRegistry();
  return [search, setSearch];
}

export function usePaletteCommands(): PaletteCommand[] {
  const { sources } = useRegistry();
  return useMemo(() => [...sources.values()].flat(), [sources]);
}

const TYPING_PAUSE_MS = 250;

/** The value once typing has paused: palette sources ask the server for that, not for every key. */
export function useSettledValue(value: string): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), TYPING_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [value]);
  return settled;
}

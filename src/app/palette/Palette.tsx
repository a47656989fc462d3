import { Command, useCommandState } from 'cmdk';
import { type RefObject, useEffect, useMemo, useRef, useState } from 'react';
import { useI18n } from '../../i18n/i18n';
import { keepAboveCursor, rankCommands } from '../../kernel/palette-ranking';
import { readRecentCommands, rememberCommand } from '../../kernel/palette-recent';
import { type PaletteCommand, usePaletteCommands, usePaletteSearch } from '../../kernel/palette-registry';

/** A list key (arrow, Home/End, Enter) pressed while the dialog's chunk was loading. */
export interface PendingKey {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
}

export interface PaletteProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  /** Keys to press in the input once the dialog is open and cmdk has filtered for the search. */
  pendingKeys?: readonly PendingKey[];
  onPendingKeysReplayed?(): void;
}

const HOME: PendingKey = { key: 'Home', ctrlKey: false, metaKey: false, altKey: false, shiftKey: false };

/**
 * Presses the pending keys in the input once cmdk holds the typed search (a task later, after its
 * filter has run). Home first: typing selects the first match, but cmdk does not when the dialog
 * opens with the search already there (seen in Chromium), so Enter would have nothing to run.
 */
function ReplayPendingKeys({
  keys,
  input,
  onDone,
}: {
  keys: readonly PendingKey[];
  input: RefObject<HTMLInputElement | null>;
  onDone(): void;
}) {
  const [search] = usePaletteSearch();
  const filtered = useCommandState((state) => state.search) === search;
  useEffect(() => {
    if (!filtered || keys.length === 0) return;
    // One key per task, as typed: cmdk marks the selected item in a render, and Enter runs the marked one.
    const queue = [HOME, ...keys];
    let timer: ReturnType<typeof setTimeout>;
    const next = () => {
      timer = setTimeout(() => {
        const key = queue.shift();
        if (!key) return onDone();
        input.current?.dispatchEvent(
          new KeyboardEvent('keydown', { ...key, bubbles: true, cancelable: true }),
        );
        next();
      }, 0);
    };
    next();
    return () => clearTimeout(timer);
  }, [filtered, keys, input, onDone]);
  return null;
}

/** Keys that move cmdk's cursor: after one of them, the item under the cursor is the admin's choice. */
const CURSOR_KEYS = new Set(['ArrowDown', 'ArrowUp', 'Home', 'End', 'PageDown', 'PageUp']);

/**
 * The registry's commands for the search, in the one ranking of `palette-ranking.ts`, and the item
 * under the cursor. Once the admin has moved the cursor, answers arriving for the same search go below it.
 */
function useRankedCommands(commands: readonly PaletteCommand[], search: string) {
  const [chosen, setChosen] = useState<string | null>(null);
  const shown = useRef<{ search: string; ids: string[] }>({ search, ids: [] });
  const recent = useMemo(readRecentCommands, []);
  const ordered = useMemo(() => {
    const ranked = rankCommands(commands, search, { recent });
    const before = shown.current.search === search ? shown.current.ids : [];
    const ids = keepAboveCursor(
      before,
      ranked.map((c) => c.id),
      chosen,
    );
    const byId = new Map(ranked.map((c) => [c.id, c]));
    return ids.map((id) => byId.get(id)).filter((c): c is PaletteCommand => c !== undefined);
  }, [commands, search, recent, chosen]);
  useEffect(() => {
    shown.current = { search, ids: ordered.map((c) => c.id) };
  }, [search, ordered]);
  // A new search is a new list: nothing is chosen in it yet.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset on every change of the search
  useEffect(() => setChosen(null), [search]);
  return { ordered, chosen, setChosen };
}

/**
 * The palette's dialog (cmdk and Radix): its own chunk, loaded by `LazyPalette` (`lazy-palette.tsx`).
 * It only shows the registry's commands, ranked here rather than by cmdk's own filter; the commands
 * and the search text live in the entry.
 */
export function Palette({
  open,
  onOpenChange,
  pendingKeys = [],
  onPendingKeysReplayed = () => {},
}: PaletteProps) {
  const { t } = useI18n();
  const input = useRef<HTMLInputElement>(null);
  const commands = usePaletteCommands();
  const [search, setSearch] = usePaletteSearch();
  const { ordered, chosen, setChosen } = useRankedCommands(commands, search);
  const moving = useRef(false);

  return (
    <Command.Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) setSearch('');
        onOpenChange(next);
      }}
      label={t('palette.label')}
      overlayClassName="palette-overlay"
      contentClassName="palette"
      shouldFilter={false}
      value={chosen ?? ordered[0]?.id ?? ''}
      onValueChange={(value) => {
        if (moving.current) setChosen(value);
        moving.current = false;
      }}
      onKeyDown={(event) => {
        moving.current = CURSOR_KEYS.has(event.key);
      }}
    >
      <Command.Input
        ref={input}
        value={search}
        onValueChange={setSearch}
        placeholder={t('palette.placeholder')}
        aria-label={t('palette.placeholder')}
      />
      <Command.List>
        <Command.Empty>{t('palette.empty')}</Command.Empty>
        {ordered.map((c) => (
          <Command.Item
            key={c.id}
            value={c.id}
            onSelect={() => {
              rememberCommand(c.id);
              setSearch('');
              onOpenChange(false);
              c.run();
            }}
          >
            <span>{c.label}</span>
            <span className="palette-item-meta">
              <span className="palette-group" aria-hidden="true">
                {c.group}
              </span>
              {c.hint ? <kbd>{c.hint}</kbd> : null}
            </span>
          </Command.Item>
        ))}
      </Command.List>
      <ReplayPendingKeys keys={pendingKeys} input={input} onDone={onPendingKeysReplayed} />
    </Command.Dialog>
  );
}

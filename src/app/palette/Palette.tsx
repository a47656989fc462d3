import { Command, useCommandState } from 'cmdk';
import { type RefObject, useEffect, useMemo, useRef } from 'react';
import { useI18n } from '../../i18n/i18n';
import { type PaletteCommand, usePaletteCommands, usePaletteSearch } from './registry';

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

/**
 * The palette's dialog (cmdk and Radix): its own chunk, loaded by `LazyPalette` (`lazy-palette.tsx`).
 * It only shows the registry's commands; the commands and the search text live in the entry.
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
  const groups = useMemo(() => {
    const byGroup = new Map<string, PaletteCommand[]>();
    for (const c of commands) byGroup.set(c.group, [...(byGroup.get(c.group) ?? []), c]);
    return [...byGroup];
  }, [commands]);

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
        {groups.map(([group, items]) => (
          <Command.Group key={group} heading={group}>
            {items.map((c) => (
              <Command.Item
                key={c.id}
                value={`${c.label} ${c.id}`}
                keywords={c.keywords ?? []}
                onSelect={() => {
                  setSearch('');
                  onOpenChange(false);
                  c.run();
                }}
              >
                <span>{c.label}</span>
                {c.hint ? <kbd>{c.hint}</kbd> : null}
              </Command.Item>
            ))}
          </Command.Group>
        ))}
      </Command.List>
      <ReplayPendingKeys keys={pendingKeys} input={input} onDone={onPendingKeysReplayed} />
    </Command.Dialog>
  );
}

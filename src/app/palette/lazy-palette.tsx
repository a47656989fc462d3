import { type ComponentType, useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useI18n } from '../../i18n/i18n';
import { useFocusReturn } from '../../kernel/focus';
import { isPaletteChord } from '../../kernel/keys';
import { usePaletteSearch } from '../../kernel/palette-registry';
import { notify } from '../../kernel/toast';
import type { PaletteProps, PendingKey } from './Palette';

/*
 * The palette's dialog (cmdk + Radix, ~35 kB gzip) is its own chunk, so the console's first load stays
 * within DESIGN.md §9's 150 kB beside the list screens' preloads (docs/decisions/0053). Everything the
 * palette needs to exist before its dialog does stays in the entry: the command registry and sources,
 * the search text, the Ctrl/⌘+K handler (`Shortcuts`) and the keys typed while the chunk is on its way.
 */

type PaletteComponent = ComponentType<PaletteProps>;

let loading: Promise<PaletteComponent> | undefined;
let loaded: PaletteComponent | null = null;
const listeners = new Set<() => void>();

/** Fetches the dialog's chunk once; a failed fetch is forgotten, so the next Ctrl/⌘+K tries again. */
export function loadPalette(): Promise<PaletteComponent> {
  loading ??= import('./Palette').then(
    (module) => {
      loaded = module.Palette;
      for (const listener of listeners) listener();
      return module.Palette;
    },
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
const current = () => loaded;

/**
 * Loads the dialog once the page has loaded and the main thread is idle, so the first Ctrl/⌘+K
 * usually finds it here — after, not beside, the start-up requests of decision 0052 (Chromium queues
 * what exceeds 6 connections per host). Returns a cancel function for an effect's cleanup.
 */
export function preloadPaletteWhenIdle(): () => void {
  if (loaded) return () => {};
  let cancelled = false;
  let idle: (() => void) | undefined;
  const whenIdle = () => {
    const run = () => {
      if (!cancelled) void loadPalette().catch(() => undefined);
    };
    if (typeof window.requestIdleCallback === 'function') {
      const handle = window.requestIdleCallback(run, { timeout: 3000 });
      idle = () => window.cancelIdleCallback(handle);
    } else {
      const handle = setTimeout(run, 200);
      idle = () => clearTimeout(handle);
    }
  };
  if (document.readyState === 'complete') whenIdle();
  else window.addEventListener('load', whenIdle, { once: true });
  return () => {
    cancelled = true;
    window.removeEventListener('load', whenIdle);
    idle?.();
  };
}

/** cmdk's own keys that move or pick in the list (its `vimBindings` included). */
function isListKey(event: KeyboardEvent): boolean {
  if (['ArrowDown', 'ArrowUp', 'Home', 'End', 'Enter'].includes(event.key)) return true;
  return event.ctrlKey && ['j', 'n', 'p'].includes(event.key.toLowerCase());
}

/** A character the palette's input would take (AltGr arrives as Ctrl+Alt on Windows). */
function isTextKey(event: KeyboardEvent): boolean {
  if (event.key.length !== 1 || event.metaKey) return false;
  return event.ctrlKey === event.altKey;
}

/**
 * The palette as `Shortcuts` renders it. Opened before its chunk has arrived (Ctrl/⌘+K on a cold
 * load), it fetches the chunk, shows an empty frame, and keeps the keys meant for the palette: text and
 * Backspace go into the search (so the dialog opens with it typed), Escape closes, and the list keys
 * (arrows, Home/End, Enter) are replayed in order once the dialog is there. Typing resets cmdk's
 * selection to the first match, so list keys pressed before more text are dropped, as they would have
 * no effect; keys after a pending Enter are dropped too (Enter runs a command and closes the palette).
 */
export function LazyPalette({ open, onOpenChange }: { open: boolean; onOpenChange(open: boolean): void }) {
  const { t } = useI18n();
  const Palette = useSyncExternalStore(subscribe, current, current);
  const [search, setSearch] = usePaletteSearch();
  const [pendingKeys, setPendingKeys] = useState<PendingKey[]>([]);
  const typed = useRef({ search, keys: pendingKeys });
  typed.current = { search, keys: pendingKeys };
  const waiting = open && Palette === null;
  const replayed = useCallback(() => setPendingKeys([]), []);
  // Radix gives focus back only to a trigger, and the palette has none (Ctrl/⌘+K opens it).
  useFocusReturn(open);

  useEffect(() => {
    if (!waiting) return;
    let active = true;
    loadPalette().catch(() => {
      if (!active) return;
      setPendingKeys([]);
      onOpenChange(false);
      notify('danger', t('errorMessages.fallback'), t('errorMessages.title'));
    });
    const onKeyDown = (event: KeyboardEvent) => {
      // Ctrl/⌘+K closes it again, through `Shortcuts`; an IME's composition is left alone.
      if (isPaletteChord(event) || event.isComposing) return;
      const { search: text, keys } = typed.current;
      const keep = (next: { search?: string; keys?: PendingKey[] }) => {
        event.preventDefault();
        event.stopPropagation();
        typed.current = { search: next.search ?? text, keys: next.keys ?? keys };
        if (next.search !== undefined) setSearch(next.search);
        if (next.keys !== undefined) setPendingKeys(next.keys);
      };
      if (event.key === 'Escape') {
        keep({ search: '', keys: [] });
        onOpenChange(false);
      } else if (keys.some((key) => key.key === 'Enter')) {
        if (isTextKey(event) || isListKey(event) || event.key === 'Backspace' || event.key === 'Tab')
          keep({});
      } else if (isTextKey(event)) {
        keep({ search: text + event.key, keys: [] });
      } else if (event.key === 'Backspace') {
        keep({ search: text.slice(0, -1), keys: [] });
      } else if (isListKey(event)) {
        const { key, ctrlKey, metaKey, altKey, shiftKey } = event;
        keep({ keys: [...keys, { key, ctrlKey, metaKey, altKey, shiftKey }] });
      } else if (event.key === 'Tab') {
        keep({});
      }
    };
    // Capture, so a focused field or table does not take them first.
    window.addEventListener('keydown', onKeyDown, true);
    return () => {
      active = false;
      window.removeEventListener('keydown', onKeyDown, true);
    };
  }, [waiting, onOpenChange, setSearch, t]);

  useEffect(() => {
    if (!open) setPendingKeys((keys) => (keys.length === 0 ? keys : []));
  }, [open]);

  if (Palette) {
    return (
      <Palette
        open={open}
        onOpenChange={onOpenChange}
        pendingKeys={pendingKeys}
        onPendingKeysReplayed={replayed}
      />
    );
  }
  if (!open) return null;
  return (
    <>
      <div className="palette-overlay" />
      <div className="palette palette-loading" role="dialog" aria-label={t('palette.label')} aria-busy="true">
        <div className="palette-loading-search">{search || t('palette.placeholder')}</div>
      </div>
    </>
  );
}

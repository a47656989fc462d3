import { useEffect, useRef, useSyncExternalStore } from 'react';
import { G_WINDOW_MS, isPaletteChord, isPlainKey, isTypingTarget } from './keys';

/**
 * Who a key press belongs to, highest first (decision 0127): an open modal dialog and the palette read
 * their own keys; a chord in progress (`g` …) takes the next key whatever it is; then the screen's keys;
 * then the keys every screen shares (`?`, `g`).
 */
export type KeyLayer = 'modal' | 'palette' | 'chord' | 'screen' | 'global';

export interface KeyState {
  modalOpen: boolean;
  paletteOpen: boolean;
  chordPending: boolean;
}

/** Modifier keys alone are part of the next key (Shift for `?`), not a key of their own. */
const MODIFIERS = new Set(['Shift', 'Control', 'Alt', 'Meta', 'AltGraph', 'CapsLock']);

/**
 * The layer a key press goes to, or null when no shortcut may take it (a modifier alone, a key held
 * with Ctrl/⌘/Alt, a key typed into a field). Ctrl/⌘+K is the palette's own key in every layer but a
 * modal's, and in fields too.
 */
export function keyLayer(state: KeyState, event: KeyboardEvent): KeyLayer | null {
  if (state.modalOpen) return 'modal';
  if (isPaletteChord(event)) return 'palette';
  if (state.paletteOpen) return 'palette';
  if (MODIFIERS.has(event.key)) return null;
  if (state.chordPending) return 'chord';
  if (!isPlainKey(event) || isTypingTarget(event.target)) return null;
  return 'screen';
}

/** A screen's key handler: true when it took the key (the dispatcher then prevents its default). */
export type ScreenKeyHandler = (event: KeyboardEvent) => boolean;

/** What the shell gives the dispatcher: the palette's state and the keys every screen shares. */
export interface GlobalKeys {
  paletteOpen(): boolean;
  togglePalette(): void;
  /** A key no screen took: true when taken; `'chord'` begins a chord (its next key goes to `finishChord`). */
  global(event: KeyboardEvent): boolean | 'chord';
  /** The key after a chord's first one, whatever it is (it is consumed either way). */
  finishChord(event: KeyboardEvent): void;
}

// Module state rather than a context: the shell gives the global keys, screens (features) register
// theirs through the kernel without a provider between them. The listeners are on `window` while
// either has something registered, so a screen's keys work with or without the shell.
const screenHandlers: { current: ScreenKeyHandler }[] = [];
let globalKeys: GlobalKeys | null = null;
let chordPending = false;
let chordTimer: ReturnType<typeof setTimeout> | undefined;
const chordListeners = new Set<() => void>();

function setChord(pending: boolean) {
  clearTimeout(chordTimer);
  if (pending) chordTimer = setTimeout(() => setChord(false), G_WINDOW_MS);
  if (chordPending === pending) return;
  chordPending = pending;
  for (const listener of chordListeners) listener();
}

/** An open modal dialog owns the keyboard (the palette is not one: it is its own layer). */
const modalOpen = () => document.querySelector('[aria-modal="true"]:not([cmdk-dialog])') !== null;

const currentState = (): KeyState => ({
  modalOpen: modalOpen(),
  paletteOpen: (globalKeys?.paletteOpen() ?? false) || document.querySelector('[cmdk-root]') !== null,
  chordPending,
});

/** Capture phase: a chord in progress consumes its second key before anything else sees it — a
 * listener a screen added straight to `window` included. */
function onCapture(event: KeyboardEvent) {
  if (keyLayer(currentState(), event) !== 'chord') return;
  setChord(false);
  event.preventDefault();
  event.stopImmediatePropagation();
  globalKeys?.finishChord(event);
}

/** Bubble phase: after a focused control had its say (`preventDefault`), the screen's keys, then the
 * global ones. */
function onBubble(event: KeyboardEvent) {
  const layer = keyLayer(currentState(), event);
  if (layer === 'palette' && isPaletteChord(event) && globalKeys) {
    event.preventDefault();
    globalKeys.togglePalette();
    return;
  }
  if (layer !== 'screen' || event.defaultPrevented) return;
  // The screen mounted last (a panel over its list) is asked first.
  for (const handler of [...screenHandlers].reverse()) {
    if (handler.current(event)) {
      event.preventDefault();
      return;
    }
  }
  const taken = globalKeys?.global(event) ?? false;
  if (taken) event.preventDefault();
  if (taken === 'chord') setChord(true);
}

let attached = false;
function attachOrDetach() {
  const wanted = globalKeys !== null || screenHandlers.length > 0;
  if (wanted === attached) return;
  attached = wanted;
  if (wanted) {
    window.addEventListener('keydown', onCapture, true);
    window.addEventListener('keydown', onBubble);
  } else {
    window.removeEventListener('keydown', onCapture, true);
    window.removeEventListener('keydown', onBubble);
    setChord(false);
  }
}

/** The shell gives the one keyboard dispatcher its global keys; returns their removal. */
export function installKeyDispatcher(keys: GlobalKeys): () => void {
  globalKeys = keys;
  attachOrDetach();
  return () => {
    if (globalKeys === keys) globalKeys = null;
    setChord(false);
    attachOrDetach();
  };
}

/**
 * A screen's keys, while it is mounted: `handler` is asked for every key the screen layer gets (never
 * in a field, under a modal or the palette, or as a chord's second key) and answers whether it took it.
 * The latest `handler` is used; it need not be stable.
 */
export function useScreenKeyHandler(handler: ScreenKeyHandler): void {
  const ref = useRef(handler);
  ref.current = handler;
  useEffect(() => {
    screenHandlers.push(ref);
    attachOrDetach();
    return () => {
      screenHandlers.splice(screenHandlers.indexOf(ref), 1);
      attachOrDetach();
    };
  }, []);
}

/** True between a chord's first key and its second (or its timeout): the shell shows a hint. */
export function useChordPending(): boolean {
  return useSyncExternalStore(
    (listener) => {
      chordListeners.add(listener);
      return () => chordListeners.delete(listener);
    },
    () => chordPending,
  );
}

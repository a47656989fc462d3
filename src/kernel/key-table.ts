import { isControlActivation, isPlainKey, isTypingTarget } from './keys';
import type { ScreenKey } from './screen-keys';

/**
 * One row of a screen's key table: what the handler answers to and what `?` shows, in one place, so
 * the help cannot list a key the handler ignores or miss one it answers (issue 14, DESIGN §8).
 */
export interface KeyBinding<A> {
  /** `KeyboardEvent.key` values that trigger it. */
  keys: readonly string[];
  /** Only with Shift held (`Shift+x` arrives as key `X`; Caps Lock alone must not extend a selection). */
  shift?: true;
  /** How the help writes it. */
  shown: string;
  /** Locale key of what it does. */
  labelKey: string;
  action: A;
}

type KeyLike = Pick<KeyboardEvent, 'key' | 'shiftKey' | 'ctrlKey' | 'metaKey' | 'altKey' | 'target'>;

/**
 * The action a plain key press means in `table`; nothing while the admin is typing in a field, nor for
 * Enter or Space on a button, link, menu item or chip (the control activates itself).
 */
export function keyAction<A>(table: readonly KeyBinding<A>[], event: KeyLike): A | null {
  if (!isPlainKey(event as KeyboardEvent) || isTypingTarget(event.target) || isControlActivation(event))
    return null;
  const binding = table.find((row) => row.keys.includes(event.key) && (!row.shift || event.shiftKey));
  return binding ? binding.action : null;
}

/** The help's lines for `table`, in its order. */
export const helpLines = <A>(table: readonly KeyBinding<A>[]): readonly ScreenKey[] =>
  table.map((row) => [row.shown, row.labelKey] as const);

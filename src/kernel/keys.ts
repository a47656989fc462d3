export const G_WINDOW_MS = 1000;

/** Single-key shortcuts must never steal a keystroke meant for a field. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLInputElement) return !NOT_TYPED_INTO.has(target.type);
  return ['TEXTAREA', 'SELECT'].includes(target.tagName);
}

/**
 * Inputs nobody types letters into: a focused file picker or checkbox must not swallow a screen's keys
 * (on `/statements` the import's file picker keeps the focus after an import, and `j` went nowhere).
 */
const NOT_TYPED_INTO = new Set([
  'file',
  'checkbox',
  'radio',
  'button',
  'submit',
  'reset',
  'image',
  'range',
  'color',
]);

/** Elements that Enter and Space activate themselves (a button's click, a link, a menu item, a chip). */
const ACTIVATABLE =
  'a[href], button, summary, input:is([type="checkbox"], [type="radio"], [type="file"], [type="button"], [type="submit"], [type="reset"]), [role="button"], [role="menuitem"], [role="menuitemcheckbox"], [role="menuitemradio"], [role="option"], [role="tab"], [role="checkbox"], [role="switch"], [role="radio"]';

/**
 * Enter or Space on a control is that control's (issue 29): a screen's key for the same letter (a
 * table's Enter "open the row") must neither run nor cancel the control's own activation.
 */
export function isControlActivation(event: Pick<KeyboardEvent, 'key' | 'target'>): boolean {
  if (event.key !== 'Enter' && event.key !== ' ') return false;
  return event.target instanceof Element && event.target.closest(ACTIVATABLE) !== null;
}

export const isPaletteChord = (event: KeyboardEvent) =>
  (event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 'k';

export const isPlainKey = (event: KeyboardEvent) => !event.ctrlKey && !event.metaKey && !event.altKey;

/**
 * Focus resting on the page rather than on a control: the document's body, or a screen's `<main>` region
 * (where focus goes when the element holding it leaves, `focus.ts`). A table's keys answer there as on
 * its own rows.
 */
export function isRestingFocus(target: EventTarget | null): boolean {
  return target === document.body || (target instanceof HTMLElement && target.tagName === 'MAIN');
}

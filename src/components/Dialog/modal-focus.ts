import { type KeyboardEvent as ReactKeyboardEvent, type RefObject, useEffect } from 'react';
import { useFocusReturn } from '../../kernel/focus';

const FOCUSABLE = 'button:not([disabled]), [href], input:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** Keeps Tab and Shift+Tab inside the dialog, so the page behind cannot be reached. */
export function trapTab(event: ReactKeyboardEvent<HTMLElement>) {
  if (event.key !== 'Tab') return;
  const items = [...event.currentTarget.querySelectorAll<HTMLElement>(FOCUSABLE)];
  const first = items[0];
  const last = items[items.length - 1];
  if (!first || !last) return;
  if (event.shiftKey && document.activeElement === first) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && document.activeElement === last) {
    event.preventDefault();
    first.focus();
  }
}

/**
 * A modal dialog's focus: on opening it goes to `initial`; on closing it returns to whatever had it
 * before (issue 14: "focus returns to where it was after every dialog").
 */
export function useModalFocus(
  dialog: RefObject<HTMLElement | null>,
  initial: RefObject<HTMLElement | null>,
): void {
  // First: it notes who had focus before the next effect moves it into the dialog.
  useFocusReturn(true);
  useEffect(() => {
    initial.current?.focus();
    // Whoever opened the dialog may restore focus right after (the palette does, as it closes).
    const reclaim = setTimeout(() => {
      if (!dialog.current?.contains(document.activeElement)) initial.current?.focus();
    }, 0);
    return () => clearTimeout(reclaim);
  }, [dialog, initial]);
}

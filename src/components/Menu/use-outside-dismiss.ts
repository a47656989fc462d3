import { type FocusEvent, type RefObject, useEffect, useRef } from 'react';

/**
 * Closes a popup (a menu, a filter chip's editor) when the pointer presses outside `root` or the
 * keyboard leaves it; returns the `onBlur` to put on `root`.
 */
export function useOutsideDismiss(open: boolean, root: RefObject<HTMLElement | null>, dismiss: () => void) {
  const latest = useRef(dismiss);
  latest.current = dismiss;
  useEffect(() => {
    if (!open) return;
    const pressOutside = (event: MouseEvent) => {
      if (!root.current?.contains(event.target as Node)) latest.current();
    };
    document.addEventListener('mousedown', pressOutside);
    return () => document.removeEventListener('mousedown', pressOutside);
  }, [open, root]);
  return (event: FocusEvent) => {
    if (open && !root.current?.contains(event.relatedTarget as Node | null)) latest.current();
  };
}

import { type RefObject, useEffect, useRef } from 'react';
import { isRestingFocus, isTypingTarget } from './keys';

/**
 * Focus on no element (the page loaded, or the element that had it left): `main`, the screen's region,
 * takes it. The layout calls it as a screen opens.
 */
export function focusScreenIfLost(): void {
  const current = document.activeElement;
  if ((current === null || current === document.body) && document.hasFocus())
    document.querySelector<HTMLElement>('main[tabindex]')?.focus({ preventScroll: true });
}

/**
 * Focus is never lost to `<body>` (issue 29 point 6, decision 0140): when the element holding focus
 * leaves the page (a closed dialog whose opener is gone, a row opened
 * into another screen, a form replaced by its result) and nothing took it back, it goes to `main`, the
 * screen's region, whose keys then answer. Chromium reports the removal as a `focusout` with no element
 * gaining focus; whoever restores focus (a dialog's opener, a table's active row) does so before this
 * runs. Mounted once by the shell: each route has its own layout, so `main` is looked for when needed.
 */
export function useFocusKeeper(): void {
  useEffect(() => {
    let pending: ReturnType<typeof setTimeout> | undefined;
    const onFocusOut = (event: FocusEvent) => {
      if (event.relatedTarget !== null) return;
      clearTimeout(pending);
      pending = setTimeout(focusScreenIfLost, 0);
    };
    document.addEventListener('focusout', onFocusOut);
    return () => {
      clearTimeout(pending);
      document.removeEventListener('focusout', onFocusOut);
    };
  }, []);
}

/**
 * The keyboard's active row holds the focus (`<tr data-active tabIndex={-1}>` inside `table`), so a
 * dialog opened from it gives focus back to it, and the row acted on is the one focused and drawn as
 * active. The row takes focus when the active index changes while the keyboard is on the table or on
 * the page (never from a field or a control elsewhere), and again whenever focus rests on the page
 * while a row is active (the row came back after a reload, the list after a screen).
 */
export function useActiveRowFocus(table: RefObject<HTMLElement | null>, active: number): void {
  const focused = useRef(-1);
  // After every render: a virtualised row is drawn only once the list has scrolled to it.
  useEffect(() => {
    if (active < 0) {
      focused.current = -1;
      return;
    }
    const root = table.current;
    const row = root?.querySelector<HTMLElement>('tr[data-active]');
    if (!root || !row || row === document.activeElement) return;
    const current = document.activeElement;
    const onTable = root.contains(current) && !isTypingTarget(current);
    if (isRestingFocus(current) || (onTable && focused.current !== active)) {
      focused.current = active;
      row.focus({ preventScroll: true });
    }
  });
}

/**
 * While `open`, remembers the element that had focus when it opened, and gives focus back to it on
 * closing if it is still on the page (a dialog, the palette, a form shown in place). When it is gone,
 * `useFocusKeeper` takes focus to the screen instead.
 */
export function useFocusReturn(open: boolean): void {
  useEffect(() => {
    if (!open) return;
    const returnTo = document.activeElement;
    return () => {
      if (returnTo instanceof HTMLElement && returnTo.isConnected) returnTo.focus({ preventScroll: true });
    };
  }, [open]);
}

/**
 * An import panel's focus through its steps (the statements' and the sources' imports): when what had the
 * focus in the panel left the screen (the control that moved the flow on), or is the file input once a file
 * is chosen (it stays on the screen to choose another, its part done), the one control the new step is about
 * (`data-focus-home`) takes it, so a keyboard user is at the mapping or the import without Tabbing there.
 * Only once the panel had the focus: on opening the screen, the page's own keys (`j`, `k`, …) must work at
 * once. `step` changes with each step; the returned handler is the panel's `onFocus`.
 */
export function useStepFocus(panel: RefObject<HTMLElement | null>, step: string, idle: boolean): () => void {
  const hadFocus = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: each new step is the moment to look
  useEffect(() => {
    if (!hadFocus.current) return;
    const focused = document.activeElement;
    const fileChosen = !idle && focused instanceof HTMLInputElement && focused.type === 'file';
    if (focused && focused !== document.body && focused.isConnected && !fileChosen) return;
    panel.current?.querySelector<HTMLElement>('[data-focus-home]')?.focus();
  }, [step]);
  return () => {
    hadFocus.current = true;
  };
}

import {
  type KeyboardEvent,
  type ReactNode,
  type Ref,
  useEffect,
  useId,
  useImperativeHandle,
  useRef,
  useState,
} from 'react';
import { useOutsideDismiss } from './use-outside-dismiss';

export interface MenuItem {
  id: string;
  label: string;
  /** The item's own language (a language's name written in it). */
  lang?: string;
  onSelect(): void;
}

interface MenuProps {
  /** The button's text. */
  button: ReactNode;
  /** The menu's accessible name. */
  label: string;
  items: readonly MenuItem[];
  className?: string;
  /** The button's class (the top bar's by default). */
  buttonClassName?: string;
  /** Lets a screen's key (a table's `f`) open the menu as ↓ on its button would. */
  handle?: Ref<MenuHandle>;
}

export interface MenuHandle {
  /** Focuses the button and opens the menu on its first item. */
  open(): void;
}

/**
 * A menu button as WAI-ARIA's pattern has it (issue 14: "menus are real menus"): opening puts focus on
 * an item (Enter, Space or ↓ the first, ↑ the last); ↑ ↓ Home End move between items; Esc closes and
 * gives focus back to the button; Tab, a click elsewhere or focus leaving close it.
 */
export function Menu({ button, label, items, className, buttonClassName, handle }: MenuProps) {
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const menuId = useId();
  const root = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const itemRefs = useRef<(HTMLButtonElement | null)[]>([]);

  useEffect(() => {
    if (open) itemRefs.current[active]?.focus();
  }, [open, active]);

  const onBlur = useOutsideDismiss(open, root, () => setOpen(false));

  const openAt = (index: number) => {
    if (items.length === 0) return;
    setActive(index);
    setOpen(true);
  };
  useImperativeHandle(handle, () => ({
    open: () => {
      trigger.current?.focus();
      openAt(0);
    },
  }));
  const close = (focusButton: boolean) => {
    setOpen(false);
    if (focusButton) trigger.current?.focus();
  };
  const last = items.length - 1;

  const onTriggerKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    event.preventDefault();
    openAt(event.key === 'ArrowDown' ? 0 : last);
  };
  const onMenuKeyDown = (event: KeyboardEvent) => {
    const moves: Record<string, number> = {
      ArrowDown: active === last ? 0 : active + 1,
      ArrowUp: active === 0 ? last : active - 1,
      Home: 0,
      End: last,
    };
    if (event.key in moves) {
      event.preventDefault();
      setActive(moves[event.key]!);
    } else if (event.key === 'Escape') {
      // Handled here: the screen's own Esc (clear a table's selection) is not for this key press.
      event.preventDefault();
      event.nativeEvent.stopImmediatePropagation();
      close(true);
    } else if (event.key === 'Tab') setOpen(false);
  };

  return (
    <div className={className} ref={root}>
      <button
        type="button"
        ref={trigger}
        className={buttonClassName ?? 'topbar-button'}
        aria-haspopup="menu"
        aria-expanded={open}
        // Nothing to offer (every filter of a table already set): said, not a dead button.
        disabled={items.length === 0}
        aria-controls={open ? menuId : undefined}
        onClick={() => (open ? close(false) : openAt(0))}
        onKeyDown={onTriggerKeyDown}
      >
        {button}
      </button>
      {open ? (
        <div
          className="dropdown"
          id={menuId}
          role="menu"
          aria-label={label}
          onKeyDown={onMenuKeyDown}
          onBlur={onBlur}
        >
          {items.map((item, index) => (
            <button
              key={item.id}
              ref={(element) => {
                itemRefs.current[index] = element;
              }}
              type="button"
              role="menuitem"
              tabIndex={index === active ? 0 : -1}
              lang={item.lang}
              onClick={() => {
                close(true);
                item.onSelect();
              }}
            >
              {item.label}
            </button>
          ))}
        </div>
      ) : null}
    </div>
  );
}

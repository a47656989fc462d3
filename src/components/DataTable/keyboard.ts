import { isPlainKey, isTypingTarget } from '../../kernel/keys';

export type TableKeyAction =
  | { type: 'move'; by: 1 | -1 }
  | { type: 'open' }
  | { type: 'select' }
  | { type: 'extend' }
  | { type: 'focusSearch' }
  | { type: 'clear' };

type KeyLike = Pick<KeyboardEvent, 'key' | 'shiftKey' | 'ctrlKey' | 'metaKey' | 'altKey' | 'target'>;

/** DESIGN §8 table keys; nothing while the admin is typing in a field. */
export function tableKeyAction(event: KeyLike): TableKeyAction | null {
  if (!isPlainKey(event as KeyboardEvent) || isTypingTarget(event.target)) return null;
  switch (event.key) {
    case 'j':
    case 'ArrowDown':
      return { type: 'move', by: 1 };
    case 'k':
    case 'ArrowUp':
      return { type: 'move', by: -1 };
    case 'Enter':
    case 'o':
      return { type: 'open' };
    case 'x':
      return { type: 'select' };
    case 'X':
      return event.shiftKey ? { type: 'extend' } : null;
    case '/':
      return { type: 'focusSearch' };
    case 'Escape':
      return { type: 'clear' };
    default:
      return null;
  }
}

export interface Cursor {
  /** Row the keyboard is on, -1 before the first move. */
  active: number;
  /** Where the last `x` was pressed: `Shift+x` selects from here to the active row. */
  anchor: number | null;
  selected: ReadonlySet<string>;
}

export const INITIAL_CURSOR: Cursor = { active: -1, anchor: null, selected: new Set() };

/** Applies a movement or selection key to the cursor over `rowIds` (the rows loaded so far). */
export function moveCursor(cursor: Cursor, action: TableKeyAction, rowIds: readonly string[]): Cursor {
  const last = rowIds.length - 1;
  switch (action.type) {
    case 'move': {
      if (last < 0) return cursor;
      const active = cursor.active < 0 ? 0 : Math.min(last, Math.max(0, cursor.active + action.by));
      return { ...cursor, active };
    }
    case 'select': {
      const id = rowIds[cursor.active];
      if (id === undefined) return cursor;
      const selected = new Set(cursor.selected);
      if (selected.has(id)) selected.delete(id);
      else selected.add(id);
      return { ...cursor, anchor: cursor.active, selected };
    }
    case 'extend': {
      if (rowIds[cursor.active] === undefined) return cursor;
      const anchor = cursor.anchor ?? cursor.active;
      const [from, to] = anchor <= cursor.active ? [anchor, cursor.active] : [cursor.active, anchor];
      const selected = new Set(cursor.selected);
      for (let i = from; i <= to; i++) selected.add(rowIds[i] as string);
      return { ...cursor, anchor, selected };
    }
    case 'clear':
      return { ...cursor, anchor: null, selected: new Set() };
    default:
      return cursor;
  }
}

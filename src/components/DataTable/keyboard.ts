import { type KeyBinding, keyAction } from '../../kernel/key-table';

export type TableKeyAction =
  | { type: 'move'; by: 1 | -1 }
  | { type: 'open' }
  | { type: 'select' }
  | { type: 'extend' }
  | { type: 'focusSearch' }
  | { type: 'openFilters' }
  | { type: 'clear' };

/** DESIGN §8 table keys: the handler reads this table and `?` lists it. */
export const TABLE_KEYS: readonly KeyBinding<TableKeyAction>[] = [
  {
    keys: ['j', 'ArrowDown'],
    shown: 'j / ↓',
    labelKey: 'shortcuts.table.down',
    action: { type: 'move', by: 1 },
  },
  {
    keys: ['k', 'ArrowUp'],
    shown: 'k / ↑',
    labelKey: 'shortcuts.table.up',
    action: { type: 'move', by: -1 },
  },
  { keys: ['Enter', 'o'], shown: 'Enter / o', labelKey: 'shortcuts.table.open', action: { type: 'open' } },
  { keys: ['x'], shown: 'x', labelKey: 'shortcuts.table.select', action: { type: 'select' } },
  {
    keys: ['X'],
    shift: true,
    shown: 'Shift x',
    labelKey: 'shortcuts.table.extend',
    action: { type: 'extend' },
  },
  { keys: ['/'], shown: '/', labelKey: 'shortcuts.table.search', action: { type: 'focusSearch' } },
  { keys: ['f'], shown: 'f', labelKey: 'shortcuts.table.filter', action: { type: 'openFilters' } },
  { keys: ['Escape'], shown: 'Esc', labelKey: 'shortcuts.table.clear', action: { type: 'clear' } },
];

/** The table key pressed, if any; nothing while the admin is typing in a field. */
export const tableKeyAction = (event: Parameters<typeof keyAction>[1]): TableKeyAction | null =>
  keyAction(TABLE_KEYS, event);

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

import type { KeyBinding } from '../../kernel/key-table';

export type ReconcileKeyAction =
  | { type: 'accept' }
  | { type: 'candidate'; nth: 0 | 1 | 2 }
  | { type: 'picker' }
  | { type: 'ignore' }
  | { type: 'unmatch' }
  | { type: 'note' }
  | { type: 'history' }
  | { type: 'acceptSelected' }
  | { type: 'ignoreSelected' }
  | { type: 'undo' };

/** DESIGN §8 reconciliation keys: the table's handler reads this table and `?` lists it. */
export const RECONCILE_KEYS: readonly KeyBinding<ReconcileKeyAction>[] = [
  { keys: ['a'], shown: 'a', labelKey: 'statements.keys.accept', action: { type: 'accept' } },
  { keys: ['1'], shown: '1', labelKey: 'statements.keys.first', action: { type: 'candidate', nth: 0 } },
  { keys: ['2'], shown: '2', labelKey: 'statements.keys.second', action: { type: 'candidate', nth: 1 } },
  { keys: ['3'], shown: '3', labelKey: 'statements.keys.third', action: { type: 'candidate', nth: 2 } },
  { keys: ['m'], shown: 'm', labelKey: 'statements.keys.picker', action: { type: 'picker' } },
  { keys: ['i'], shown: 'i', labelKey: 'statements.keys.ignore', action: { type: 'ignore' } },
  { keys: ['u'], shown: 'u', labelKey: 'statements.keys.unmatch', action: { type: 'unmatch' } },
  { keys: ['n'], shown: 'n', labelKey: 'statements.keys.note', action: { type: 'note' } },
  { keys: ['h'], shown: 'h', labelKey: 'statements.keys.history', action: { type: 'history' } },
  {
    keys: ['A'],
    shift: true,
    shown: 'Shift a',
    labelKey: 'statements.keys.acceptSelected',
    action: { type: 'acceptSelected' },
  },
  {
    keys: ['I'],
    shift: true,
    shown: 'Shift i',
    labelKey: 'statements.keys.ignoreSelected',
    action: { type: 'ignoreSelected' },
  },
  { keys: ['z'], shown: 'z', labelKey: 'statements.keys.undo', action: { type: 'undo' } },
];

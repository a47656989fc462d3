// @vitest-environment jsdom
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { INITIAL_CURSOR, moveCursor, tableKeyAction } from '../../../src/components/DataTable/keyboard';
import {
  decodeTableState,
  encodeTableState,
  type TableUrlState,
} from '../../../src/components/DataTable/url-state';

const KEYS = ['status', 'country', 'createdFrom', 'areaOfInterest'] as const;

const stateArb: fc.Arbitrary<TableUrlState> = fc
  .record({
    q: fc.string({ maxLength: 30 }),
    filters: fc.record(
      Object.fromEntries(
        KEYS.map((k) => [k, fc.array(fc.string({ minLength: 1, maxLength: 12 }), { maxLength: 3 })]),
      ),
    ),
    sort: fc.option(fc.constantFrom('created', 'name', 'lastActive', 'e mail&=?'), { nil: null }),
    order: fc.option(fc.constantFrom('asc' as const, 'desc' as const), { nil: null }),
  })
  .map((s) => ({
    ...s,
    // Canonical form: no empty filter entries; an order only means something with a sort.
    filters: Object.fromEntries(Object.entries(s.filters).filter(([, v]) => v.length > 0)),
    order: s.sort ? s.order : null,
  }));

describe('table URL codec', () => {
  it('decodes what it encoded, for any query, filters (repeated values) and sort', () => {
    fc.assert(
      fc.property(stateArb, (state) => {
        expect(decodeTableState(encodeTableState(state, KEYS), KEYS)).toEqual(state);
      }),
    );
  });

  it('re-encodes a decoded URL to the same string (a pasted link is stable)', () => {
    fc.assert(
      fc.property(stateArb, (state) => {
        const url = encodeTableState(state, KEYS);
        expect(encodeTableState(decodeTableState(url, KEYS), KEYS)).toBe(url);
      }),
    );
  });

  it('keeps parameters that belong to someone else and reads only declared filters', () => {
    const url = encodeTableState(
      { q: 'ana', filters: { status: ['DISABLED', 'NEW_USER'] }, sort: 'name', order: 'asc' },
      KEYS,
      'tab=files&q=old&status=EMAIL_VERIFIED',
    );
    expect(url).toBe('tab=files&q=ana&status=DISABLED&status=NEW_USER&sort=name&order=asc');
    expect(decodeTableState('gender=male&status=&q=x', ['status'])).toEqual({
      q: 'x',
      filters: {},
      sort: null,
      order: null,
    });
  });

  it('drops an order that is neither asc nor desc', () => {
    expect(decodeTableState('sort=name&order=sideways', KEYS).order).toBeNull();
  });
});

describe('table keys', () => {
  const key = (k: string, extra: Partial<KeyboardEvent> = {}) =>
    tableKeyAction({
      key: k,
      shiftKey: false,
      ctrlKey: false,
      metaKey: false,
      altKey: false,
      target: null,
      ...extra,
    });

  it('maps the keys of DESIGN §8', () => {
    expect(key('j')).toEqual({ type: 'move', by: 1 });
    expect(key('ArrowDown')).toEqual({ type: 'move', by: 1 });
    expect(key('k')).toEqual({ type: 'move', by: -1 });
    expect(key('ArrowUp')).toEqual({ type: 'move', by: -1 });
    expect(key('Enter')).toEqual({ type: 'open' });
    expect(key('o')).toEqual({ type: 'open' });
    expect(key('x')).toEqual({ type: 'select' });
    expect(key('X', { shiftKey: true })).toEqual({ type: 'extend' });
    expect(key('/')).toEqual({ type: 'focusSearch' });
    expect(key('Escape')).toEqual({ type: 'clear' });
    expect(key('q')).toBeNull();
  });

  it('ignores keys typed in a field or with a modifier', () => {
    const input = document.createElement('input');
    expect(key('j', { target: input })).toBeNull();
    expect(key('j', { ctrlKey: true })).toBeNull();
  });

  it('moves within bounds, toggles with x and extends a range with Shift+x', () => {
    const ids = ['a', 'b', 'c', 'd', 'e'];
    let cursor = moveCursor(INITIAL_CURSOR, { type: 'move', by: -1 }, ids);
    expect(cursor.active).toBe(0);
    cursor = moveCursor(cursor, { type: 'move', by: 1 }, ids);
    cursor = moveCursor(cursor, { type: 'select' }, ids);
    expect([...cursor.selected]).toEqual(['b']);
    for (let i = 0; i < 10; i++) cursor = moveCursor(cursor, { type: 'move', by: 1 }, ids);
    expect(cursor.active).toBe(4);
    cursor = moveCursor(cursor, { type: 'move', by: -1 }, ids);
    cursor = moveCursor(cursor, { type: 'extend' }, ids);
    expect([...cursor.selected].sort()).toEqual(['b', 'c', 'd']);
    cursor = moveCursor(cursor, { type: 'select' }, ids);
    expect([...cursor.selected].sort()).toEqual(['b', 'c']);
    cursor = moveCursor(cursor, { type: 'clear' }, ids);
    expect(cursor.selected.size).toBe(0);
    expect(moveCursor(INITIAL_CURSOR, { type: 'move', by: 1 }, []).active).toBe(-1);
  });
});

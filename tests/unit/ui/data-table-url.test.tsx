// @vitest-environment jsdom
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatDay, lisbonDay, parseDay, presetRange } from '../../../src/components/DataTable/date-range';
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
    expect(key('f')).toEqual({ type: 'openFilters' });
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

describe('date-range days', () => {
  const dayArb = fc
    .date({
      min: new Date('1900-01-01T00:00:00Z'),
      max: new Date('2999-12-31T00:00:00Z'),
      noInvalidDate: true,
    })
    .map((d) => d.toISOString().slice(0, 10));

  it('reads back every day it writes, in both console languages (dd/mm/yyyy)', () => {
    fc.assert(
      fc.property(dayArb, fc.constantFrom('pt-PT', 'en-GB'), (iso, locale) => {
        const shown = formatDay(iso, locale);
        expect(shown).toMatch(/^\d{2}\/\d{2}\/\d{4}$/);
        expect(parseDay(shown, locale)).toBe(iso);
      }),
    );
    expect(formatDay('2026-11-01', 'pt-PT')).toBe('01/11/2026');
    expect(formatDay('2026-11-01', 'en-GB')).toBe('01/11/2026');
  });

  it('takes the day first, short fields and other separators, and refuses days that do not exist', () => {
    expect(parseDay('1/2/2026', 'pt-PT')).toBe('2026-02-01');
    expect(parseDay(' 01-11-2026 ', 'en-GB')).toBe('2026-11-01');
    expect(parseDay('29.02.2028', 'pt-PT')).toBe('2028-02-29');
    for (const bad of [
      '29/02/2026',
      '31/04/2026',
      '00/01/2026',
      '01/13/2026',
      '2026-11-01',
      '1/1/26',
      'hoje',
      '',
    ])
      expect(parseDay(bad, 'pt-PT'), bad).toBeNull();
  });

  it("counts presets on Lisbon's calendar, across a month, a year and summer time", () => {
    // 23:30 UTC on 31 December is still 31 December in Lisbon (UTC+0 in winter)…
    const winter = new Date('2026-12-31T23:30:00Z');
    expect(lisbonDay(winter)).toBe('2026-12-31');
    // …while 23:30 UTC on 31 March is already 1 April (UTC+1 in summer).
    const summer = new Date('2027-03-31T23:30:00Z');
    expect(lisbonDay(summer)).toBe('2027-04-01');
    expect(presetRange('today', summer)).toEqual({ from: '2027-04-01', to: '2027-04-01' });
    expect(presetRange('last7Days', summer)).toEqual({ from: '2027-03-26', to: '2027-04-01' });
    expect(presetRange('thisMonth', summer)).toEqual({ from: '2027-04-01', to: '2027-04-01' });
    expect(presetRange('lastMonth', summer)).toEqual({ from: '2027-03-01', to: '2027-03-31' });
    const january = new Date('2027-01-05T12:00:00Z');
    expect(presetRange('lastMonth', january)).toEqual({ from: '2026-12-01', to: '2026-12-31' });
    expect(presetRange('last7Days', january)).toEqual({ from: '2026-12-30', to: '2027-01-05' });
    expect(presetRange('lastMonth', new Date('2028-03-10T12:00:00Z'))).toEqual({
      from: '2028-02-01',
      to: '2028-02-29',
    });
  });
});

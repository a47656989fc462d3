import { describe, expect, it } from 'vitest';
import { columnsToHide, trackMinimum } from '../../../src/components/DataTable/column-fit';

const REM = 14;
const columns = [
  { id: 'name', width: 'minmax(10rem, 1fr)', hideable: false }, // 140
  { id: 'email', width: 'minmax(12rem, 1.4fr)' }, // 168
  { id: 'status', width: '11rem' }, // 154
  { id: 'country', width: '6rem' }, // 84
  { id: 'created', width: '90px' }, // 90
];

describe('columns fitted to the width', () => {
  it('reads a track’s least width in rem or px', () => {
    expect(trackMinimum('minmax(8rem, 1fr)', REM)).toBe(112);
    expect(trackMinimum('11rem', REM)).toBe(154);
    expect(trackMinimum('90px', REM)).toBe(90);
  });

  it('hides nothing when everything fits, or before the width is known', () => {
    expect(columnsToHide(columns, {}, 636, REM)).toEqual({});
    expect(columnsToHide(columns, {}, 0, REM)).toEqual({});
  });

  it('hides from the rightmost column leftwards until the rest fit', () => {
    expect(columnsToHide(columns, {}, 635, REM)).toEqual({ created: false });
    expect(columnsToHide(columns, {}, 462, REM)).toEqual({ created: false, country: false });
    expect(columnsToHide(columns, {}, 461, REM)).toEqual({ created: false, country: false, status: false });
  });

  it('never hides a column that cannot be hidden or that the admin chose to see', () => {
    expect(columnsToHide(columns, { created: true }, 462, REM)).toEqual({ country: false, status: false });
    expect(columnsToHide(columns, {}, 100, REM)).toEqual({
      created: false,
      country: false,
      status: false,
      email: false,
    });
  });

  it('counts only the columns the admin has not hidden', () => {
    expect(columnsToHide(columns, { email: false }, 470, REM)).toEqual({});
  });
});

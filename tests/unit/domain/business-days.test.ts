import { describe, expect, it } from 'vitest';
import {
  addDays,
  easterSunday,
  isIsoDate,
  isTarget2BusinessDay,
  lisbonDateTime,
  nextTarget2BusinessDay,
  todayInLisbon,
} from '../../../domain/business-days';

describe('TARGET2 calendar', () => {
  it('computes Easter', () => {
    expect(easterSunday(2024)).toBe('2024-03-31');
    expect(easterSunday(2025)).toBe('2025-04-20');
    expect(easterSunday(2026)).toBe('2026-04-05');
  });

  it('closes on weekends and the six TARGET2 holidays', () => {
    for (const d of [
      '2026-01-01',
      '2026-04-03',
      '2026-04-06',
      '2026-05-01',
      '2026-12-25',
      '2026-12-26',
      '2026-05-09',
      '2026-05-10',
    ]) {
      expect(isTarget2BusinessDay(d), d).toBe(false);
    }
    // Portuguese national holidays are TARGET2 business days.
    for (const d of ['2026-04-25', '2026-06-10', '2026-12-08', '2026-05-05']) {
      expect(isTarget2BusinessDay(d) || new Date(`${d}T00:00:00Z`).getUTCDay() % 6 === 0, d).toBe(true);
    }
  });

  it('moves to the next business day', () => {
    expect(nextTarget2BusinessDay('2026-05-05')).toBe('2026-05-05');
    expect(nextTarget2BusinessDay('2026-04-03')).toBe('2026-04-07');
    expect(nextTarget2BusinessDay('2026-12-24')).toBe('2026-12-24');
    expect(nextTarget2BusinessDay('2026-12-25')).toBe('2026-12-28');
    expect(nextTarget2BusinessDay('2027-12-31')).toBe('2027-12-31');
    expect(nextTarget2BusinessDay('2028-01-01')).toBe('2028-01-03');
  });

  it('uses Lisbon time, not the server clock', () => {
    // 23:30 UTC on 31 Mar 2026 is already 1 Apr in Lisbon (summer time, UTC+1).
    expect(todayInLisbon(new Date('2026-03-31T23:30:00Z'))).toBe('2026-04-01');
    expect(todayInLisbon(new Date('2026-01-15T23:30:00Z'))).toBe('2026-01-15');
    expect(lisbonDateTime(new Date('2026-05-04T08:15:00Z'))).toBe('2026-05-04T09:15:00+01:00');
    expect(lisbonDateTime(new Date('2026-01-04T08:15:00Z'))).toBe('2026-01-04T08:15:00+00:00');
  });

  it('validates calendar dates', () => {
    expect(isIsoDate('2026-02-29')).toBe(false);
    expect(isIsoDate('2028-02-29')).toBe(true);
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
  });
});

import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatMoney } from '../../../src/features/users/format';

describe('users formatting', () => {
  it('keeps one formatter per locale (and currency), never mixing them', () => {
    const iso = '2026-03-13T22:10:06.038Z';
    // One format per kind (issue 14), on Lisbon's clock (UTC+0 in March, UTC+1 in July).
    expect(formatDate(iso, 'pt-PT')).toBe('13/03/2026');
    expect(formatDate(iso, 'en-GB')).toBe('13/03/2026');
    expect(formatDateTime(iso, 'pt-PT')).toBe('13/03/2026, 22:10');
    expect(formatDateTime('2026-07-01T23:30:00Z', 'en-GB')).toBe('02/07/2026, 00:30');
    expect(formatDate('2026-07-01T23:30:00Z', 'pt-PT')).toBe('02/07/2026');
    expect(formatMoney(1500, 'EUR', 'pt-PT')).not.toBe(formatMoney(1500, 'USD', 'pt-PT'));
    expect(formatDate(null, 'pt-PT')).toBe('—');
  });
});

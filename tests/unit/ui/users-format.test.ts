import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatMoney } from '../../../src/features/users/format';

describe('users formatting', () => {
  it('keeps one formatter per locale (and currency), never mixing them', () => {
    const iso = '2026-03-13T22:10:06.038Z';
    const pt = formatDate(iso, 'pt-PT');
    const en = formatDate(iso, 'en-GB');
    expect(pt).not.toBe(en);
    expect(formatDate(iso, 'pt-PT')).toBe(pt);
    expect(formatDate(iso, 'en-GB')).toBe(en);
    expect(formatDate(iso, 'pt-PT')).toBe(
      new Intl.DateTimeFormat('pt-PT', { dateStyle: 'medium' }).format(new Date(iso)),
    );
    expect(formatDateTime(iso, 'en-GB')).toBe(
      new Intl.DateTimeFormat('en-GB', { dateStyle: 'short', timeStyle: 'short' }).format(new Date(iso)),
    );
    expect(formatMoney(1500, 'EUR', 'pt-PT')).not.toBe(formatMoney(1500, 'USD', 'pt-PT'));
    expect(formatDate(null, 'pt-PT')).toBe('—');
  });
});

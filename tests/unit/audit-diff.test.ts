import { describe, expect, it } from 'vitest';
import { auditDiff } from '../../src/features/audit/audit-diff';

describe('auditDiff', () => {
  it('lists only the fields that changed, with before and after as text', () => {
    expect(
      auditDiff({ disabled: false, status: 'EMAIL_VERIFIED' }, { disabled: true, status: 'EMAIL_VERIFIED' }),
    ).toEqual([{ field: 'disabled', before: 'false', after: 'true' }]);
  });

  it('shows a field that appears or disappears on one side only', () => {
    expect(auditDiff(null, { name: 'Cardiologia' })).toEqual([{ field: 'name', after: 'Cardiologia' }]);
    expect(auditDiff({ name: 'Cardiologia' }, null)).toEqual([{ field: 'name', before: 'Cardiologia' }]);
    expect(
      auditDiff({ status: 'READY_TO_SETTLE' }, { status: 'AVAILABLE', availableOn: '2026-03-01' }),
    ).toEqual([
      { field: 'status', before: 'READY_TO_SETTLE', after: 'AVAILABLE' },
      { field: 'availableOn', after: '2026-03-01' },
    ]);
  });

  it('compares nested values and lists as JSON, and bare values as one change', () => {
    expect(auditDiff({ areas: ['a'] }, { areas: ['a', 'b'] })).toEqual([
      { field: 'areas', before: '["a"]', after: '["a","b"]' },
    ]);
    expect(auditDiff(['x'], ['y'])).toEqual([{ field: 'value', before: '["x"]', after: '["y"]' }]);
    expect(auditDiff(null, null)).toEqual([]);
    expect(auditDiff({ same: 1 }, { same: 1 })).toEqual([]);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { payoutDecision } from '../../../domain/sepa/payout-plan';

const cents = fc.integer({ min: 1, max: 10_000_000 });

describe('payoutDecision (DESIGN §6: one transfer per doctor, recoveries deducted, never ≤ 0)', () => {
  it('pays owed − recovery, exactly, and only when that is above zero', () => {
    fc.assert(
      fc.property(cents, fc.integer({ min: 0, max: 10_000_000 }), (owedCents, recoveryCents) => {
        const decision = payoutDecision({ owedCents, recoveryCents, missingFields: [], blocked: false });
        if (recoveryCents >= owedCents)
          expect(decision).toEqual({ pay: false, reason: 'RECOVERY_NOT_COVERED' });
        else {
          expect(decision).toEqual({
            pay: true,
            transferCents: owedCents - recoveryCents,
            recoveredCents: recoveryCents,
          });
          if (decision.pay) expect(decision.transferCents + decision.recoveredCents).toBe(owedCents);
        }
      }),
    );
  });

  it('never pays a doctor with missing data or a payout block, whatever is owed', () => {
    fc.assert(
      fc.property(cents, fc.boolean(), (owedCents, blocked) => {
        expect(payoutDecision({ owedCents, recoveryCents: 0, missingFields: ['iban'], blocked })).toEqual({
          pay: false,
          reason: 'MISSING_INFORMATION',
        });
        expect(payoutDecision({ owedCents, recoveryCents: 0, missingFields: [], blocked: true })).toEqual({
          pay: false,
          reason: 'PAYOUT_BLOCKED',
        });
      }),
    );
  });
});

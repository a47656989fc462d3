import type { ProfessionalField } from '../iban';

/**
 * Who a SEPA file pays, and how much (DESIGN §6): one transfer per doctor, their SETTLED settlements
 * of the month summed, minus what they must give back (refunds after payout, REFUNDED_PAID) — and a
 * transfer is never ≤ 0. Pure, so the rule is pinned by property tests; the server reads the figures.
 */

/**
 * Why a doctor with SETTLED settlements is not in a file, in the order they are checked:
 * - `MISSING_INFORMATION`: full name, tax number, a valid SEPA IBAN or college number is missing;
 * - `PAYOUT_BLOCKED`: the bank rejected a transfer to the IBAN the doctor still has;
 * - `RECOVERY_NOT_COVERED`: what the doctor must give back is ≥ what is owed (the transfer would be ≤ 0);
 * - `INVALID_BANK_DATA`: the EPC rules refuse the doctor's bank data (e.g. a BIC the IBAN's country needs).
 */
export const PAYOUT_EXCLUSIONS = [
  'MISSING_INFORMATION',
  'PAYOUT_BLOCKED',
  'RECOVERY_NOT_COVERED',
  'INVALID_BANK_DATA',
] as const;
export type PayoutExclusion = (typeof PAYOUT_EXCLUSIONS)[number];

export interface DoctorBalance {
  /** Σ payable of the doctor's SETTLED settlements of the month, integer cents (> 0). */
  owedCents: number;
  /** Σ of the doctor's REFUNDED_PAID settlements not yet deducted, integer cents (≥ 0). */
  recoveryCents: number;
  missingFields: readonly ProfessionalField[];
  blocked: boolean;
}

export type PayoutDecision =
  | { pay: true; transferCents: number; recoveredCents: number }
  | { pay: false; reason: PayoutExclusion };

export function payoutDecision(balance: DoctorBalance): PayoutDecision {
  if (balance.missingFields.length > 0) return { pay: false, reason: 'MISSING_INFORMATION' };
  if (balance.blocked) return { pay: false, reason: 'PAYOUT_BLOCKED' };
  // The whole outstanding recovery is deducted at once: a remainder carried over would need its own
  // bookkeeping per settlement, and the rule "never ≤ 0" already skips a doctor who cannot cover it.
  if (balance.recoveryCents >= balance.owedCents) return { pay: false, reason: 'RECOVERY_NOT_COVERED' };
  return {
    pay: true,
    transferCents: balance.owedCents - balance.recoveryCents,
    recoveredCents: balance.recoveryCents,
  };
}

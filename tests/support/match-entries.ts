import type { MatchEntry } from '../../domain/reconcile/match';

/**
 * A bank line as the matcher reads it: an EUR transfer on line 1 with no text, name, IBAN or reference,
 * `over` on top. The matcher's tests and its benchmark month build their lines with it.
 */
export const matchEntry = (
  over: Partial<MatchEntry> & Pick<MatchEntry, 'id' | 'bookingDate' | 'amountCents'>,
): MatchEntry => ({
  lineNumber: 1,
  valueDate: null,
  currency: 'EUR',
  description: '',
  counterpartyName: null,
  counterpartyIban: null,
  bankReference: null,
  endToEndId: null,
  batchId: null,
  kind: 'transfer',
  returnReason: null,
  ...over,
});

import { type ExpectedItem, type MatchEntry, reconcile } from '../../domain/reconcile/match';

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

/** Each line's suggested counterpart and its confidence, by line id: what the matcher's tests compare. */
export const suggested = (lines: MatchEntry[], items: ExpectedItem[]): Record<string, [string, number]> =>
  Object.fromEntries(
    reconcile(lines, items).suggestions.map((s) => [
      s.entryIds[0]!,
      [s.itemIds[0]!, s.confidence] as [string, number],
    ]),
  );

import { describe, expect, it } from 'vitest';
import { generateMonth } from '../../bench/matcher-month';
import { referenceWords } from '../../domain/reconcile/features';
import type { ExpectedItem } from '../../domain/reconcile/match';

// The quality bench measures the product's matcher only if the generated counterparts carry what the
// import's matcher reads for them (`openItems`, server/statements/matching.ts) and nothing more (decision 0165).
const month = generateMonth(2000, 42);
const SETTLEMENT_ID = /^IFT\d{12}$/;

/** The fields `openItems` fills per kind of counterpart; anything else set is information the product lacks. */
function productFields(item: ExpectedItem): string[] {
  const common = ['id', 'type', 'direction', 'amountCents', 'date'];
  // A transfer to a doctor: no reference (its EndToEndId is read apart), no phone.
  if (item.type === 'sepa')
    return [...common, 'endToEndId', 'batchIds', 'counterpartyName', 'counterpartyIban', 'partyId'];
  if (item.type === 'payout') return [...common, 'reference'];
  // Sales documents carry their customer, a credit note the customer of the invoice it corrects (migration
  // 0055); the provider's fee invoices (money leaving, not "NC …") none.
  const creditNote = item.direction === 'out' && item.reference?.startsWith('NC ');
  return item.direction === 'out' && !creditNote
    ? [...common, 'reference']
    : [...common, 'reference', 'counterpartyName', 'counterpartyPhone', 'partyId'];
}

describe('the generated month gives the matcher what the product gives it', () => {
  it('sets no counterpart field the product leaves empty for its kind', () => {
    const extra = month.items.flatMap((item) =>
      Object.entries(item)
        .filter(([field, value]) => value != null && !productFields(item).includes(field))
        .map(([field]) => `${item.id} (${item.type}, ${item.direction ?? ''}): ${field}`),
    );
    expect(extra).toEqual([]);
  });

  it('prints no sales document’s number on a bank line: Multibanco payments arrive as the collector’s settlements', () => {
    const invoiceNumbers = new Set(
      month.items.filter((i) => i.type === 'invoice' && i.direction === 'in').map((i) => i.reference),
    );
    const printed = month.entries.filter((e) => referenceWords(e).some((w) => invoiceNumbers.has(w)));
    expect(printed.map((e) => e.description)).toEqual([]);

    const byId = new Map(month.items.map((i) => [i.id, i]));
    const settlements = month.entries.filter((e) => month.truth.get(e.id)!.kind === 'collector-payout');
    // One credit per business day the collector settled (June 2026: 19 up to the 27th).
    expect(settlements.length).toBeGreaterThan(15);
    for (const line of settlements) {
      const payout = byId.get(month.truth.get(line.id)!.itemId!)!;
      expect(payout.type).toBe('payout');
      expect(payout.amountCents).toBe(line.amountCents);
      expect(line.bookingDate > payout.date!).toBe(true);
      // The settlement id, when the text carries one, is the payout's.
      const printedId = line.description.split(' ').find((w) => SETTLEMENT_ID.test(w));
      if (printedId) expect(printedId).toBe(payout.reference);
    }
    const withId = settlements.filter((line) =>
      line.description.split(' ').some((w) => SETTLEMENT_ID.test(w)),
    );
    expect(withId.length).toBeGreaterThan(0);
    expect(withId.length).toBeLessThan(settlements.length);
  });

  it('numbers lines in booking-date order and counterparts by date, so no id order tells a line its counterpart', () => {
    const dates = month.entries.map((e) => e.bookingDate);
    expect(dates).toEqual([...dates].sort());
    expect(month.entries.map((e) => e.lineNumber)).toEqual(month.entries.map((_, k) => k + 1));
    const itemDates = month.items.map((i) => i.date ?? '');
    expect(itemDates).toEqual([...itemDates].sort());
    // Two lines of one day paying invoices of one day: the earlier line pays the earlier invoice about
    // half the time, as on a real statement — not always, as when both were numbered as they were drawn.
    const invoiceOf = (e: (typeof month.entries)[number]) => month.truth.get(e.id)!.itemId;
    const byId = new Map(month.items.map((i) => [i.id, i]));
    const paying = month.entries.filter((e) => month.truth.get(e.id)!.kind === 'sepa-in');
    let pairs = 0;
    let inOrder = 0;
    for (let a = 0; a < paying.length; a++)
      for (let b = a + 1; b < paying.length && paying[b]!.bookingDate === paying[a]!.bookingDate; b++) {
        const [x, y] = [byId.get(invoiceOf(paying[a]!)!)!, byId.get(invoiceOf(paying[b]!)!)!];
        if (x.date !== y.date) continue;
        pairs++;
        if (x.id < y.id) inOrder++;
      }
    expect(pairs).toBeGreaterThan(100);
    expect(inOrder / pairs).toBeGreaterThan(0.35);
    expect(inOrder / pairs).toBeLessThan(0.65);
  });

  it('is the same month for the same seed', () => {
    const again = generateMonth(2000, 42);
    expect(again.entries).toEqual(month.entries);
    expect(again.items).toEqual(month.items);
  });
});

// MB WAY phones as banks print them, against the customer's phone the product holds (decision 0160). The
// bank texts are real (decision 0151's sources): Caixa Geral de Depósitos "TRF MBWAY 964XXX072 0000235180"
// and "Trf Mbway 933XXX415" (the middle three digits masked), ActivoBank "TRF MB WAY P/ *****4562" (the
// last four shown), a GoCardless account feed "TRF MB WAY P       9046".

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { candidatesFor } from '../../../domain/reconcile/candidates';
import {
  type ExpectedItem,
  type MatchEntry,
  reconcile,
  SURE_SUGGESTION,
} from '../../../domain/reconcile/match';
import { counterpartyAgreement, printedName } from '../../../domain/reconcile/names';
import { lastThree, nationalDigits, phoneAgreement, printedPhone } from '../../../domain/reconcile/phones';
import { matchEntry } from '../../support/match-entries';

const line = (id: string, description: string, over: Partial<MatchEntry> = {}): MatchEntry =>
  matchEntry({ id, bookingDate: '2026-06-05', amountCents: 2500, description, ...over });
const invoice = (id: string, phone: string | null, over: Partial<ExpectedItem> = {}): ExpectedItem => ({
  id,
  type: 'invoice',
  direction: 'in',
  amountCents: 2500,
  date: '2026-06-05',
  counterpartyName: `Cliente ${id}`,
  counterpartyPhone: phone,
  partyId: `P-${id}`,
  ...over,
});

describe('the phone a bank prints', () => {
  it('reads the masked phone after the MB WAY mark, as each bank prints it', () => {
    expect(printedPhone('TRF MBWAY 964XXX072 0000235180')).toBe('964XXX072');
    expect(printedPhone('Trf Mbway 933XXX415')).toBe('933XXX415');
    expect(printedPhone('TRF MB WAY P/ *****4562')).toBe('*****4562');
    expect(printedPhone('TRF MB WAY P       9046')).toBe('9046');
    expect(printedPhone('TRF MB WAY DE MARIA FERREIRA')).toBeNull();
    expect(printedPhone('TRF SEPA 964XXX072')).toBeNull();
  });

  it('reads a customer phone with or without Portugal’s country code', () => {
    expect(nationalDigits('+351 964 123 072')).toBe('964123072');
    expect(nationalDigits('00351964123072')).toBe('964123072');
    expect(nationalDigits('964 123 072')).toBe('964123072');
    expect(nationalDigits('+44 7700 900123')).toBe('447700900123');
  });

  it('agrees when every visible digit is the customer’s, right-aligned; one different digit contradicts', () => {
    expect(phoneAgreement('964XXX072', '+351 964 123 072')).toBe(1);
    expect(phoneAgreement('964XXX072', '00351964987072')).toBe(1);
    expect(phoneAgreement('964XXX073', '+351 964 123 072')).toBe(0);
    expect(phoneAgreement('965XXX072', '+351 964 123 072')).toBe(0);
    expect(phoneAgreement('*****4562', '912 344 562')).toBe(0.67);
    expect(phoneAgreement('*****4562', '912 344 563')).toBe(0);
    expect(phoneAgreement('9046', '931 229 046')).toBe(0.67);
    expect(phoneAgreement('351964XXX072', '964123072')).toBe(1);
    expect(phoneAgreement('1964XXX072', '964123072')).toBe(0);
    expect(lastThree('964XXX072')).toBe(72);
    expect(lastThree('9641230XX')).toBe(-1);
  });

  it('an MB WAY phone line agrees with the customer of that phone, contradicts another’s, and says nothing new to a customer without one', () => {
    const printed = printedName(line('L1', 'TRF MBWAY 964XXX072 0000235180'));
    expect(printed.phone).toBe('964XXX072');
    const e = { counterpartyIban: null };
    expect(counterpartyAgreement(e, { counterpartyPhone: '+351964123072' }, printed, ['ANA'])).toBe(1);
    expect(counterpartyAgreement(e, { counterpartyPhone: '+351964123073' }, printed, ['ANA'])).toBe(0);
    // No phone to compare: a named item is contradicted by a line printing a phone, as before.
    expect(counterpartyAgreement(e, {}, printed, ['ANA'])).toBe(0);
    // A line printing a name keeps comparing names.
    expect(printedName(line('L2', 'TRF MB WAY DE MARIA FERREIRA')).phone).toBeNull();
  });
});

describe('suggestions by the MB WAY phone', () => {
  // 60 open invoices of the same amount and day: the nearest 20 by date would not reach the right one.
  const crowd = Array.from({ length: 60 }, (_, k) =>
    invoice(`I${String(k).padStart(2, '0')}`, `9121000${String(k).padStart(2, '0')}`),
  );

  it('finds the customer of the phone among 60 invoices of the amount, sure when no one else shares its visible digits', () => {
    const right = invoice('Z-right', '+351 964 123 072');
    const r = reconcile([line('L1', 'TRF MBWAY 964XXX072 0000235180')], [...crowd, right]);
    expect(r.suggestions).toEqual([expect.objectContaining({ entryIds: ['L1'], itemIds: ['Z-right'] })]);
    expect(r.suggestions[0]!.confidence).toBe(SURE_SUGGESTION);
    expect(r.matches).toEqual([]);
  });

  it('is never sure when two customers share the visible digits: a person must choose', () => {
    const a = invoice('Z-a', '964123072');
    const b = invoice('Z-b', '964555072');
    const r = reconcile([line('L1', 'TRF MBWAY 964XXX072')], [...crowd, a, b]);
    expect(r.suggestions).toHaveLength(1);
    expect(['Z-a', 'Z-b']).toContain(r.suggestions[0]!.itemIds[0]);
    expect(r.suggestions[0]!.confidence).toBeLessThan(SURE_SUGGESTION);
  });

  it('is not sure when another line could be the same customer’s payment', () => {
    const right = invoice('Z-right', '964123072');
    const r = reconcile(
      [line('L1', 'TRF MBWAY 964XXX072'), line('L2', 'TRF MBWAY 964XXX072', { bookingDate: '2026-06-08' })],
      [...crowd, right],
    );
    expect(r.suggestions).toHaveLength(1);
    expect(r.suggestions[0]!.confidence).toBeLessThan(SURE_SUGGESTION);
  });

  it('is sure when that line is printed alike: one of the two pays it, whichever is linked (decision 0185)', () => {
    const right = invoice('Z-right', '964123072');
    const r = reconcile(
      [line('L1', 'TRF MBWAY 964XXX072'), line('L2', 'TRF MBWAY 964XXX072')],
      [...crowd, right],
    );
    expect(r.suggestions).toEqual([
      expect.objectContaining({ entryIds: ['L1'], itemIds: ['Z-right'], confidence: SURE_SUGGESTION }),
    ]);
  });

  it('one customer’s two invoices are told by the date and stay sure', () => {
    const earlier = invoice('Z-1', '964123072', { date: '2026-06-01', partyId: 'P-same' });
    const same = invoice('Z-2', '964123072', { date: '2026-06-05', partyId: 'P-same' });
    const r = reconcile([line('L1', 'TRF MBWAY 964XXX072')], [earlier, same]);
    expect(r.suggestions[0]!.itemIds).toEqual(['Z-2']);
    expect(r.suggestions[0]!.confidence).toBe(SURE_SUGGESTION);
  });

  it('never suggests a customer whose visible digits differ', () => {
    const r = reconcile([line('L1', 'TRF MBWAY 964XXX072')], [invoice('Z', '964123073')]);
    expect(r.suggestions).toEqual([]);
  });

  it('the match picker says the phone agreed', () => {
    const [best] = candidatesFor(line('L1', 'TRF MBWAY 964XXX072'), [...crowd, invoice('Z', '964123072')]);
    expect(best).toMatchObject({ itemId: 'Z', reasons: { phone: true, nameSimilarity: 1 } });
    const [other] = candidatesFor(line('L1', 'TRF MB WAY DE CLIENTE Z'), [invoice('Z', '964123072')]);
    expect(other!.reasons.phone).toBe(false);
  });
});

describe('the phone rule as a property', () => {
  const digits = fc.constantFrom('964123072', '964555072', '964123073', '933111415', '912344562');
  const month = fc
    .record({
      lines: fc.array(
        fc.record({
          phone: digits,
          mask: fc.constantFrom('cgd', 'last4'),
          amount: fc.constantFrom(1000, 2500),
          day: fc.integer({ min: 1, max: 9 }),
        }),
        { maxLength: 12 },
      ),
      items: fc.array(
        fc.record({
          phone: fc.option(digits, { nil: null }),
          amount: fc.constantFrom(1000, 2500),
          day: fc.integer({ min: 1, max: 9 }),
          party: fc.integer({ min: 0, max: 3 }),
        }),
        { maxLength: 12 },
      ),
    })
    .map(({ lines, items }) => ({
      entries: lines.map((l, k) =>
        line(
          `L${k}`,
          l.mask === 'cgd'
            ? `TRF MBWAY ${l.phone.slice(0, 3)}XXX${l.phone.slice(6)}`
            : `TRF MB WAY P/ *****${l.phone.slice(5)}`,
          { amountCents: l.amount, bookingDate: `2026-06-0${l.day}` },
        ),
      ),
      items: items.map((i, k) =>
        invoice(`I${k}`, i.phone && `+351 ${i.phone}`, {
          amountCents: i.amount,
          date: `2026-06-0${i.day}`,
          partyId: `P${i.party}`,
        }),
      ),
    }));
  const shuffle = <T>(list: T[], seed: number) =>
    list
      .map((v, k) => ({ v, k: Math.imul(k + 1, 2654435761 ^ seed) >>> 0 }))
      .sort((a, b) => a.k - b.k)
      .map((x) => x.v);

  it('never depends on input order, never links differing amounts or phones whose visible digits differ', () => {
    fc.assert(
      fc.property(month, fc.integer(), ({ entries, items }, seed) => {
        const r = reconcile(entries, items);
        expect(reconcile(shuffle(entries, seed), shuffle(items, seed))).toEqual(r);
        const byId = new Map(items.map((i) => [i.id, i]));
        const lines = new Map(entries.map((e) => [e.id, e]));
        for (const s of r.suggestions) {
          const e = lines.get(s.entryIds[0]!)!;
          const item = byId.get(s.itemIds[0]!)!;
          expect(item.amountCents).toBe(e.amountCents);
          expect(s.differenceCents).toBe(0);
          expect(item.counterpartyPhone).not.toBeNull();
          expect(phoneAgreement(printedPhone(e.description)!, item.counterpartyPhone!)).toBeGreaterThan(0);
        }
      }),
      { numRuns: 300 },
    );
  });
});

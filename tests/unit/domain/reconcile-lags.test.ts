// The suggestions' assignment by rail lag and party, and when a suggestion is sure (decision 0146).
// June 2026: Friday 5, Saturday 6, Monday 8, Tuesday 9, Wednesday 10 (Portugal Day, a national
// holiday), Thursday 11; Corpus Christi is Thursday 4 June (Easter, 5 April, + 60).

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dayNumber } from '../../../domain/reconcile/features';
import {
  BookingDays,
  expectedLag,
  isPortugueseBankDay,
  lagCost,
  lagSpread,
} from '../../../domain/reconcile/lags';
import {
  type ExpectedItem,
  type MatchEntry,
  reconcile,
  SURE_SUGGESTION,
} from '../../../domain/reconcile/match';
import { nameAgreement, nameWords } from '../../../domain/reconcile/names';
import { matchEntry } from '../../support/match-entries';

const entry = (id: string, over: Partial<MatchEntry>): MatchEntry =>
  matchEntry({ id, bookingDate: '2026-06-08', amountCents: 2500, ...over });
const invoice = (id: string, name: string, over: Partial<ExpectedItem> = {}): ExpectedItem => ({
  id,
  type: 'invoice',
  direction: 'in',
  amountCents: 2500,
  date: '2026-06-05',
  counterpartyName: name,
  ...over,
});
const day = (date: string) => dayNumber(date);
const suggested = (lines: MatchEntry[], items: ExpectedItem[]): Record<string, [string, number]> =>
  Object.fromEntries(
    reconcile(lines, items).suggestions.map((s) => [
      s.entryIds[0]!,
      [s.itemIds[0]!, s.confidence] as [string, number],
    ]),
  );

describe('days banks book on', () => {
  it('closes weekends, TARGET2 holidays and the Portuguese national holidays', () => {
    expect(isPortugueseBankDay(day('2026-06-05'))).toBe(true); // Friday
    expect(isPortugueseBankDay(day('2026-06-06'))).toBe(false); // Saturday
    expect(isPortugueseBankDay(day('2026-06-10'))).toBe(false); // Portugal Day
    expect(isPortugueseBankDay(day('2026-06-04'))).toBe(false); // Corpus Christi
    expect(isPortugueseBankDay(day('2026-04-03'))).toBe(false); // Good Friday (TARGET2)
    expect(isPortugueseBankDay(day('2026-12-26'))).toBe(false); // TARGET2
    expect(isPortugueseBankDay(day('2026-06-11'))).toBe(true);
  });

  it('counts business days from the counterpart (moved to a day banks book on) to the booking', () => {
    const days = new BookingDays(day('2026-05-25'), day('2026-06-30'));
    expect(days.lag(day('2026-06-05'), day('2026-06-08'))).toBe(1); // Friday → Monday
    expect(days.lag(day('2026-06-06'), day('2026-06-09'))).toBe(1); // Saturday → Tuesday
    expect(days.lag(day('2026-06-09'), day('2026-06-11'))).toBe(1); // over Portugal Day
    expect(days.lag(day('2026-06-08'), day('2026-06-08'))).toBe(0);
    expect(days.lag(day('2026-06-09'), day('2026-06-08'))).toBe(-1); // booked ahead: calendar days
    // Outside the span: calendar days, never a throw.
    expect(new BookingDays(0, -1).lag(day('2026-06-05'), day('2026-06-08'))).toBe(3);
  });

  it('expects a SEPA credit the business day after, anything else the same day', () => {
    expect(expectedLag({ amountCents: 2500, description: 'TRF CR SEPA+ 0000030 DE ANA LOPES' })).toBe(1);
    expect(expectedLag({ amountCents: 2500, description: 'MB WAY ANA LOPES' })).toBe(0);
    expect(expectedLag({ amountCents: -2500, description: 'TRF SEPA P/ ANA LOPES' })).toBe(0);
  });

  it('lets only the SEPA credit be booked on one day; the rest the day or the next (decision 0173)', () => {
    expect(
      lagSpread(expectedLag({ amountCents: 2500, description: 'TRF CR SEPA+ 0000030 DE ANA LOPES' })),
    ).toBe(0);
    expect(lagSpread(expectedLag({ amountCents: 2500, description: 'MB WAY ANA LOPES' }))).toBe(1);
    expect(lagSpread(expectedLag({ amountCents: -2500, description: 'TRF SEPA P/ ANA LOPES' }))).toBe(1);
  });

  it('costs a line booked ahead of its counterpart more than any lag within the window (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 30 }),
        fc.nat(40),
        fc.integer({ min: 1, max: 40 }),
        fc.nat(2),
        (w, lag, ahead, rail) => {
          const onTime = lagCost(lag, lag, rail, w);
          expect(onTime).toBeGreaterThanOrEqual(0);
          expect(onTime).toBeLessThanOrEqual(w);
          expect(lagCost(-ahead, -ahead, rail, w)).toBeGreaterThan(w);
        },
      ),
    );
  });
});

describe('the assignment by rail lag and party', () => {
  it("gives a customer's Friday and Monday invoices to the SEPA lines of Monday and Tuesday, both surely", () => {
    const items = [
      invoice('FRI', 'Ana Lopes', { date: '2026-06-05', partyId: 'C1' }),
      invoice('MON', 'Ana Lopes', { date: '2026-06-08', partyId: 'C1' }),
    ];
    const lines = [
      entry('L1', { bookingDate: '2026-06-08', description: 'TRF CR SEPA+ 0000030 DE ANA LOPES' }),
      entry('L2', { bookingDate: '2026-06-09', description: 'TRF CR SEPA+ 0000031 DE ANA LOPES' }),
    ];
    expect(suggested(lines, items)).toEqual({ L1: ['FRI', SURE_SUGGESTION], L2: ['MON', SURE_SUGGESTION] });
  });

  // Two customers whose names print alike (decision 0173): their Friday and Monday invoices of one amount.
  const alike = [
    invoice('A', 'Ana Lopes', { date: '2026-06-05', partyId: 'C1' }),
    invoice('B', 'Ana Lopes', { date: '2026-06-08', partyId: 'C2' }),
  ];

  it("says sure between two customers printed alike when each SEPA line's day tells whose it is", () => {
    const lines = [
      entry('L1', { bookingDate: '2026-06-08', description: 'TRF SEPA ANA LOPES' }),
      entry('L2', { bookingDate: '2026-06-09', description: 'TRF SEPA ANA LOPES' }),
    ];
    // Monday's line is Friday's invoice's (a SEPA credit is booked the next business day): Monday's
    // invoice has Tuesday's line, which fits it better. And the other way round.
    expect(suggested(lines, alike)).toEqual({ L1: ['A', SURE_SUGGESTION], L2: ['B', SURE_SUGGESTION] });
    // Given in the other order, the same.
    expect(suggested([...lines].reverse(), [...alike].reverse())).toEqual({
      L1: ['A', SURE_SUGGESTION],
      L2: ['B', SURE_SUGGESTION],
    });
  });

  // A statement whose other customers each paid one document, on their rail's day (a SEPA credit the
  // business day after), `late` of them two business days after: what tells whether its payers keep to
  // the rail (decision 0178). An amount of its own for each, so each line has one counterpart.
  const others = (count: number, late = 0) => {
    const paid = Array.from({ length: count }, (_, k) =>
      invoice(`O${k}`, 'Rui Costa', { amountCents: 10_000 + k, date: '2026-06-08', partyId: `O${k}` }),
    );
    const lines = paid.map((item, k) =>
      entry(`M${k}`, {
        amountCents: item.amountCents,
        bookingDate: k < late ? '2026-06-11' : '2026-06-09',
        description: 'TRF SEPA RUI COSTA',
      }),
    );
    return { lines, paid };
  };
  const withOthers = (lines: MatchEntry[], items: ExpectedItem[], late = 0) => {
    const o = others(1000, late);
    const to = suggested([...lines, ...o.lines], [...items, ...o.paid]);
    return Object.fromEntries(Object.entries(to).filter(([line]) => !line.startsWith('M')));
  };

  it("says sure the SEPA line's invoice of the rail's day when the statement's payers keep to the rail: another customer's of another day, which no line pays, is unpaid (decision 0178)", () => {
    // Tuesday's credit was sent on Monday: Friday's invoice (booked Monday, had it been paid) is not its.
    const line = entry('L1', { bookingDate: '2026-06-09', description: 'TRF SEPA ANA LOPES' });
    expect(withOthers([line], alike)).toEqual({ L1: ['B', SURE_SUGGESTION] });
    // Two of the thousand others paid late: a payment days after its document's day happens here, and
    // Friday's invoice may be this line's.
    const late = withOthers([line], alike, 2);
    expect(late.L1![0]).toBe('B');
    expect(late.L1![1]).toBeLessThan(SURE_SUGGESTION);
    // Alone, the line shows nothing of its payers' habits.
    expect(suggested([line], alike).L1![1]).toBeLessThan(SURE_SUGGESTION);
  });

  it('keeps a counterpart with no party a rival off the rail when no line of its own explains it (decision 0173)', () => {
    // Two payouts of the amount, no name to tell them: Tuesday's line is booked the day of Tuesday's
    // payout, two business days after Friday's — yet Friday's, which no line explains, may be this one.
    const payout = (id: string, date: string): ExpectedItem => ({
      id,
      type: 'payout',
      amountCents: 2500,
      date,
    });
    const line = entry('L1', { bookingDate: '2026-06-09', description: 'TRF CR STRIPE PAYMENTS EUROPE LTD' });
    // Even where the statement's payers keep to the rail (decision 0178): a payout has no payer to keep to it.
    const to = withOthers([line], [payout('FRI', '2026-06-05'), payout('TUE', '2026-06-09')]);
    expect(to.L1![0]).toBe('TUE');
    expect(to.L1![1]).toBeLessThan(SURE_SUGGESTION);
  });

  it('keeps a longer name a rival of a whole name printed where a field could have ended at a space (decision 0178)', () => {
    // "MARGARIDA QUINTAS" is 17 characters: Margarida Quintas Castro's name in a field of 18 cut at the space.
    const quintas = [
      invoice('WHOLE', 'Margarida Quintas', { date: '2026-06-08', partyId: 'C1' }),
      invoice('LONGER', 'Margarida Quintas Castro', { date: '2026-06-08', partyId: 'C2' }),
    ];
    const cut = suggested(
      [entry('L1', { bookingDate: '2026-06-09', description: 'TRF SEPA MARGARIDA QUINTAS' })],
      quintas,
    );
    expect(cut.L1![0]).toBe('WHOLE');
    expect(cut.L1![1]).toBeLessThan(SURE_SUGGESTION);
    // Too short for any field banks cut names to: the whole name.
    const short = suggested(
      [entry('L1', { bookingDate: '2026-06-09', description: 'TRF SEPA ANA LOPES' })],
      [
        invoice('WHOLE', 'Ana Lopes', { date: '2026-06-08', partyId: 'C1' }),
        invoice('LONGER', 'Ana Lopes Costa', { date: '2026-06-08', partyId: 'C2' }),
      ],
    );
    expect(short).toEqual({ L1: ['WHOLE', SURE_SUGGESTION] });
    // The longer name's invoice of a day the rail rules out is no rival.
    const offRail = withOthers(
      [entry('L1', { bookingDate: '2026-06-09', description: 'TRF SEPA MARGARIDA QUINTAS' })],
      [quintas[0]!, { ...quintas[1]!, date: '2026-06-05' }],
    );
    expect(offRail).toEqual({ L1: ['WHOLE', SURE_SUGGESTION] });
  });

  it('keeps them rivals when the dates do not tell: invoices of one day, or a rail booked that day or the next', () => {
    const sameDay = alike.map((i) => ({ ...i, date: '2026-06-05' }));
    const sepa = [
      entry('L1', { bookingDate: '2026-06-08', description: 'TRF SEPA ANA LOPES' }),
      entry('L2', { bookingDate: '2026-06-09', description: 'TRF SEPA ANA LOPES' }),
    ];
    expect(Object.values(suggested(sepa, sameDay)).every(([, c]) => c < SURE_SUGGESTION)).toBe(true);
    // MB WAY books the day of the transfer or the next: Tuesday's line may pay Monday's invoice, and
    // Monday's line a third customer's of Friday. Monday's line fitting Monday's invoice better does
    // not explain that invoice away: a person must choose.
    const mbWay = [
      entry('L1', { bookingDate: '2026-06-08', description: 'MB WAY ANA LOPES' }),
      entry('L2', { bookingDate: '2026-06-09', description: 'MB WAY ANA LOPES' }),
    ];
    const three = [
      invoice('X', 'Ana Lopes', { date: '2026-06-05', partyId: 'C3' }),
      invoice('A', 'Ana Lopes', { date: '2026-06-08', partyId: 'C1' }),
      invoice('B', 'Ana Lopes', { date: '2026-06-09', partyId: 'C2' }),
    ];
    const to = suggested(mbWay, three);
    expect(to.L2![0]).toBe('B');
    expect(to.L2![1]).toBeLessThan(SURE_SUGGESTION);
  });

  it('crosses off an invoice another line surely pays, whichever line the matcher looked at first (decision 0176)', () => {
    // Lúcia Leonor's Monday invoice is surely Tuesday's SEPA line's (booked the next business day; Lúcia
    // Hugo's Tuesday invoice would be a payment booked ahead of its invoice). That leaves Tuesday's MB WAY
    // line one invoice only: Lúcia Hugo's, surely too — with the MB WAY line first in id order as well.
    const items = [
      invoice('HUGO', 'Lúcia Hugo Correia', { date: '2026-06-09', partyId: 'C1' }),
      invoice('LEONOR', 'Lúcia Leonor Correia', { date: '2026-06-08', partyId: 'C2' }),
    ];
    const mbWay = { bookingDate: '2026-06-09', description: 'MB WAY L CORREIA' };
    const sepa = { bookingDate: '2026-06-09', description: 'TRF CR SEPA+ DE L CORREIA' };
    for (const [first, second] of [
      [mbWay, sepa],
      [sepa, mbWay],
    ] as const) {
      const to = suggested([entry('L1', first), entry('L2', second)], items);
      const mbWayLine = first === mbWay ? 'L1' : 'L2';
      const sepaLine = first === mbWay ? 'L2' : 'L1';
      expect(to).toEqual({ [mbWayLine]: ['HUGO', SURE_SUGGESTION], [sepaLine]: ['LEONOR', SURE_SUGGESTION] });
    }
  });

  it('is never surely wrong between customers printed alike when each line is booked within its rail’s lags (property)', () => {
    // Mondays to Thursdays of two weeks without holidays: a SEPA credit booked the next day, an MB WAY
    // transfer the same day or the next; some invoices not paid in this statement.
    const days = [
      '2026-06-15',
      '2026-06-16',
      '2026-06-17',
      '2026-06-18',
      '2026-06-22',
      '2026-06-23',
      '2026-06-24',
    ];
    const next = (date: string) => {
      const at = new Date(`${date}T00:00:00Z`);
      at.setUTCDate(at.getUTCDate() + 1);
      return at.toISOString().slice(0, 10);
    };
    const payment = fc.record({
      day: fc.integer({ min: 0, max: days.length - 1 }),
      rail: fc.constantFrom('sepa', 'mbway-same-day', 'mbway-next-day', 'unpaid'),
    });
    fc.assert(
      fc.property(fc.array(payment, { minLength: 2, maxLength: 8 }), (payments) => {
        const items = payments.map((p, k) =>
          invoice(`I${k}`, 'Ana Lopes', { date: days[p.day]!, partyId: `C${k}` }),
        );
        const lines = payments.flatMap((p, k) =>
          p.rail === 'unpaid'
            ? []
            : [
                entry(`L${k}`, {
                  bookingDate: p.rail === 'mbway-same-day' ? days[p.day]! : next(days[p.day]!),
                  description: p.rail === 'sepa' ? 'TRF SEPA ANA LOPES' : 'MB WAY ANA LOPES',
                }),
              ],
        );
        for (const [line, [item, confidence]] of Object.entries(suggested(lines, items)))
          if (confidence >= SURE_SUGGESTION) expect(item).toBe(`I${line.slice(1)}`);
      }),
      { numRuns: 2000 },
    );
  });

  it('takes the counterpart the line is booked after, not one dated after the booking', () => {
    const items = [
      invoice('AFTER', 'Rui Costa', { date: '2026-06-09', partyId: 'C1' }),
      invoice('BEFORE', 'Rui Costa', { date: '2026-06-05', partyId: 'C1' }),
    ];
    const to = suggested(
      [entry('L1', { bookingDate: '2026-06-08', description: 'MB WAY RUI COSTA' })],
      items,
    );
    expect(to.L1).toEqual(['BEFORE', SURE_SUGGESTION]);
  });

  it('suggests a counterpart dated after the booking, but never surely', () => {
    const to = suggested(
      [entry('L1', { bookingDate: '2026-06-08', description: 'MB WAY RUI COSTA' })],
      [invoice('LATER', 'Rui Costa', { date: '2026-06-09', partyId: 'C1' })],
    );
    expect(to.L1![0]).toBe('LATER');
    expect(to.L1![1]).toBeLessThan(SURE_SUGGESTION);
  });

  it('reads a name printed whole as its own before one that leaves a word out', () => {
    const printed = nameWords('IRENE ARAUJO ASSUNCAO');
    expect(nameAgreement(printed, nameWords('Irene Araújo Assunção'))).toBe(1);
    expect(nameAgreement(printed, nameWords('Irene Mariana Araújo Assunção'))).toBeLessThan(1);
    // Words spelt out that leave a middle name out read as a name cut at the end does: a tie.
    const cutOrSkipped = nameWords('MARIANA HUGO FERREIRA');
    expect(nameAgreement(cutOrSkipped, nameWords('Mariana Hugo Valente Ferreira'))).toBe(
      nameAgreement(cutOrSkipped, nameWords('Mariana Hugo Ferreira Azevedo')),
    );
    // Initials drop middle names by their style: no less for that.
    expect(nameAgreement(nameWords('J SIMOES'), nameWords('João Pedro Simões'))).toBe(
      nameAgreement(nameWords('J SIMOES'), nameWords('João Simões')),
    );
  });
});

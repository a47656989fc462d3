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
  type MatchOptions,
  reconcile,
  SURE_SUGGESTION,
} from '../../../domain/reconcile/match';
import { nameAgreement, nameWords } from '../../../domain/reconcile/names';
import { matchEntry, suggested } from '../../support/match-entries';

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

  // A SEPA credit printing Ana Lopes, booked on `bookingDate`.
  const anaLopes = (id: string, bookingDate: string) =>
    entry(id, { bookingDate, description: 'TRF SEPA ANA LOPES' });
  // Two customers whose names print alike (decision 0173): their Friday and Monday invoices of one amount.
  const alike = [
    invoice('A', 'Ana Lopes', { date: '2026-06-05', partyId: 'C1' }),
    invoice('B', 'Ana Lopes', { date: '2026-06-08', partyId: 'C2' }),
  ];

  it("says sure between two customers printed alike when each SEPA line's day tells whose it is", () => {
    const lines = [anaLopes('L1', '2026-06-08'), anaLopes('L2', '2026-06-09')];
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
    const line = anaLopes('L1', '2026-06-09');
    expect(withOthers([line], alike)).toEqual({ L1: ['B', SURE_SUGGESTION] });
    // Two of the thousand others paid late: a payment days after its document's day happens here, and
    // Friday's invoice may be this line's.
    const late = withOthers([line], alike, 2);
    expect(late.L1![0]).toBe('B');
    expect(late.L1![1]).toBeLessThan(SURE_SUGGESTION);
    // Alone, the line shows nothing of its payers' habits.
    expect(suggested([line], alike).L1![1]).toBeLessThan(SURE_SUGGESTION);
  });

  it("says neither sure when the statement's payers pay late: each SEPA line's day no longer tells whose it is (decision 0184)", () => {
    const lines = [anaLopes('L1', '2026-06-08'), anaLopes('L2', '2026-06-09')];
    // Two of the thousand others paid two business days late: Tuesday's line may be Friday's invoice paid
    // late, and Monday's line a third customer's.
    const late = withOthers(lines, alike, 2);
    expect(late.L1![0]).toBe('A');
    expect(late.L2![0]).toBe('B');
    expect(late.L1![1]).toBeLessThan(SURE_SUGGESTION);
    expect(late.L2![1]).toBeLessThan(SURE_SUGGESTION);
    // All on the rail (decision 0178), or too few to tell (0173): sure.
    expect(withOthers(lines, alike)).toEqual({ L1: ['A', SURE_SUGGESTION], L2: ['B', SURE_SUGGESTION] });
  });

  it("keeps a later line a rival of a customer's document when the statement's payers pay late, though a pair of its own fits it better (decision 0184)", () => {
    // Tuesday's line pays Monday's invoice on the rail. Friday's line fits Thursday's invoice better (the
    // next business day; Wednesday is Portugal Day), but it may be Monday's invoice paid three business
    // days late. Thursday's invoice is no rival of Tuesday's line: a payment is not booked before its document.
    const items = [
      invoice('MON', 'Ana Lopes', { date: '2026-06-08', partyId: 'C2' }),
      invoice('THU', 'Ana Lopes', { date: '2026-06-11', partyId: 'C3' }),
    ];
    const lines = [anaLopes('L2', '2026-06-09'), anaLopes('L3', '2026-06-12')];
    expect(suggested(lines, items)).toEqual({ L2: ['MON', SURE_SUGGESTION], L3: ['THU', SURE_SUGGESTION] });
    const late = withOthers(lines, items, 2);
    expect(late.L2![0]).toBe('MON');
    expect(late.L2![1]).toBeLessThan(SURE_SUGGESTION);
    expect(late.L3![0]).toBe('THU');
    expect(late.L3![1]).toBeLessThan(SURE_SUGGESTION);
  });

  it("keeps another customer's open document of the days before the window a rival when the statement's payers pay late (decision 0184)", () => {
    // Monday 15 June's credit, sent Friday: Friday's invoice. Another Ana Lopes's invoice of Monday 8 June
    // is seven days before, beyond the 5-day window — a payment three business days late over a weekend.
    const line = anaLopes('L1', '2026-06-15');
    const friday = invoice('FRI', 'Ana Lopes', { date: '2026-06-12', partyId: 'C1' });
    const earlier = (date: string, over: Partial<ExpectedItem> = {}) =>
      invoice('EARLIER', 'Ana Lopes', { date, partyId: 'C2', ...over });
    // Friday 5 June and Tuesday 9 June are the first and last days of the window before.
    for (const date of ['2026-06-08', '2026-06-05', '2026-06-09']) {
      const late = withOthers([line], [friday, earlier(date)], 2);
      expect(late.L1![0]).toBe('FRI');
      expect(late.L1![1]).toBeLessThan(SURE_SUGGESTION);
    }
    // On the rail, or too few lines to tell: it is unpaid.
    expect(withOthers([line], [friday, earlier('2026-06-08')])).toEqual({ L1: ['FRI', SURE_SUGGESTION] });
    expect(suggested([line], [friday, earlier('2026-06-08')])).toEqual({ L1: ['FRI', SURE_SUGGESTION] });
    // Sure though payers pay late: a window further back (4 June), the same customer's, a name the line
    // agrees with less, or surely another line's (Tuesday 9 June's credit).
    for (const other of [
      earlier('2026-06-04'),
      earlier('2026-06-05', { partyId: 'C1' }),
      earlier('2026-06-08', { counterpartyName: 'Ana Maria Lopes' }),
    ])
      expect(withOthers([line], [friday, other], 2)).toEqual({ L1: ['FRI', SURE_SUGGESTION] });
    const tuesday = anaLopes('L0', '2026-06-09');
    expect(withOthers([tuesday, line], [friday, earlier('2026-06-08')], 2)).toEqual({
      L0: ['EARLIER', SURE_SUGGESTION],
      L1: ['FRI', SURE_SUGGESTION],
    });
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
      [anaLopes('L1', '2026-06-09')],
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
    const sepa = [anaLopes('L1', '2026-06-08'), anaLopes('L2', '2026-06-09')];
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

  type Rail = 'sepa' | 'mbway-same-day' | 'mbway-next-day' | 'unpaid';
  const rail = fc.constantFrom<Rail>('sepa', 'mbway-same-day', 'mbway-next-day', 'unpaid');
  // Customers printed alike (Ana Lopes), each with an invoice `paid` on its rail or not at all: a sure
  // pair is never another customer's.
  const neverSurelyWrong = <P extends { rail: Rail }>(
    payment: fc.Arbitrary<P>,
    dated: (p: P) => string,
    booked: (p: P) => string,
    options: MatchOptions = {},
  ) =>
    fc.assert(
      fc.property(fc.array(payment, { minLength: 2, maxLength: 8 }), (payments) => {
        const items = payments.map((p, k) =>
          invoice(`I${k}`, 'Ana Lopes', { date: dated(p), partyId: `C${k}` }),
        );
        const lines = payments.flatMap((p, k) =>
          p.rail === 'unpaid'
            ? []
            : [
                entry(`L${k}`, {
                  bookingDate: booked(p),
                  description: p.rail === 'sepa' ? 'TRF SEPA ANA LOPES' : 'MB WAY ANA LOPES',
                }),
              ],
        );
        for (const s of reconcile(lines, items, options).suggestions)
          if (s.confidence >= SURE_SUGGESTION) expect(s.itemIds[0]).toBe(`I${s.entryIds[0]!.slice(1)}`);
      }),
      { numRuns: 2000 },
    );

  it('is never surely wrong between customers printed alike when each line is booked within its rail’s lags (property)', () => {
    // Mondays to Thursdays of two weeks without holidays: a SEPA credit booked the next day, an MB WAY
    // transfer the same day or the next; some invoices not paid in this statement.
    const days = ['15', '16', '17', '18', '22', '23', '24'].map((d) => `2026-06-${d}`);
    const next = (date: string) => {
      const at = new Date(`${date}T00:00:00Z`);
      at.setUTCDate(at.getUTCDate() + 1);
      return at.toISOString().slice(0, 10);
    };
    neverSurelyWrong(
      fc.record({ day: fc.integer({ min: 0, max: days.length - 1 }), rail }),
      (p) => days[p.day]!,
      (p) => (p.rail === 'mbway-same-day' ? days[p.day]! : next(days[p.day]!)),
    );
  });

  it("is never surely wrong between customers printed alike when the statement's payers pay up to three business days late (property, decision 0184)", () => {
    // Business days of 15–26 June 2026 (no holiday): invoices of the first six, each paid on its rail's day
    // (SEPA the next business day, MB WAY that day or the next), up to three business days late, or not at all.
    const days = ['15', '16', '17', '18', '19', '22', '23', '24', '25', '26'].map((d) => `2026-06-${d}`);
    neverSurelyWrong(
      fc.record({ day: fc.integer({ min: 0, max: 5 }), rail, late: fc.integer({ min: 0, max: 3 }) }),
      (p) => days[p.day]!,
      (p) => days[p.day + (p.rail === 'mbway-same-day' ? 0 : 1) + p.late]!,
      { railKept: false },
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

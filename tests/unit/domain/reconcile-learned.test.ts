// Learned rules as a signal of the matcher (decision 0146): a line whose counterparty text was matched
// to a party before agrees fully with that party's items, whatever its name says.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { candidatesFor } from '../../../domain/reconcile/candidates';
import {
  counterpartyText,
  ibanText,
  learnedTexts,
  mbWayPhone,
  ruleFor,
} from '../../../domain/reconcile/learned';
import {
  type ExpectedItem,
  type MatchEntry,
  reconcile,
  SURE_SUGGESTION,
} from '../../../domain/reconcile/match';
import { matchEntry } from '../../support/match-entries';

const entry = (id: string, over: Partial<MatchEntry>): MatchEntry =>
  matchEntry({ id, bookingDate: '2026-06-08', amountCents: -12_000, ...over });
const transfer = (id: string, partyId: string, over: Partial<ExpectedItem> = {}): ExpectedItem => ({
  id,
  type: 'sepa',
  amountCents: 12_000,
  date: '2026-06-08',
  counterpartyName: 'Dra. Ana Lopes',
  partyId,
  ...over,
});

describe('the learned rules signal', () => {
  it('keeps the text as the matcher reads names, and nothing for a bare number or initials alone', () => {
    expect(
      counterpartyText({ counterpartyName: null, description: 'TRF CR SEPA+ 0000030 DE Clínica do Sorriso' }),
    ).toBe('CLINICA SORRISO');
    expect(counterpartyText({ counterpartyName: 'JOAO LONGO', description: 'TRF 0001' })).toBe('JOAO LONGO');
    expect(counterpartyText({ counterpartyName: null, description: 'TRF 0000235180' })).toBeNull();
    expect(counterpartyText({ counterpartyName: null, description: 'TRF J M' })).toBeNull();
  });

  // Real texts (decision 0151): Caixa Geral de Depósitos prints an MB WAY transfer's phone with its middle
  // three digits masked, followed by a sequence number; ActivoBank keeps the last four; a name wins.
  it("keeps an MB WAY line's phone as the bank prints it, masked or not, when it prints no name", () => {
    expect(mbWayPhone('TRF MBWAY 964XXX072 0000235180')).toBe('MBWAY 964XXX072');
    expect(mbWayPhone('Trf Mbway 933XXX415')).toBe('MBWAY 933XXX415');
    expect(mbWayPhone('TRF MB WAY P/ *****4562')).toBe('MBWAY *****4562');
    expect(mbWayPhone('TRF MB WAY P       9046')).toBe('MBWAY 9046');
    expect(mbWayPhone('MB WAY 912345678')).toBe('MBWAY 912345678');
    expect(mbWayPhone('TRF MB WAY DE MARIA FERREIRA')).toBeNull();
    expect(mbWayPhone('TRF SEPA 964XXX072')).toBeNull();
    expect(mbWayPhone('TRF MBWAY 12')).toBeNull();
    expect(counterpartyText({ counterpartyName: null, description: 'TRF MBWAY 964XXX072 0000235180' })).toBe(
      'MBWAY 964XXX072',
    );
    expect(counterpartyText({ counterpartyName: null, description: 'TRF MB WAY DE JOAO TAVEIRA' })).toBe(
      'JOAO TAVEIRA',
    );
  });

  it("a phone matched to one customer before suggests that customer's invoice, sure when it has no rival", () => {
    const invoice = (id: string, partyId: string, date: string): ExpectedItem => ({
      id,
      type: 'invoice',
      direction: 'in',
      amountCents: 2500,
      date,
      counterpartyName: partyId === 'C1' ? 'Maria Ferreira' : 'Rui Costa',
      partyId,
    });
    const line = entry('L1', { amountCents: 2500, description: 'TRF MBWAY 964XXX072 0000235180' });
    const items = [invoice('I1', 'C1', '2026-06-08'), invoice('I2', 'C2', '2026-06-08')];
    // Without the rule a phone says nothing of the two customers: nothing suggested.
    expect(reconcile([line], items).suggestions).toEqual([]);
    const r = reconcile([line], items, { learned: new Map([['MBWAY 964XXX072', 'C1']]) });
    expect(r.suggestions.map((s) => [s.itemIds[0], s.confidence])).toEqual([['I1', SURE_SUGGESTION]]);
    const [best] = candidatesFor(line, items, { learnedPartyId: 'C1' });
    expect(best).toMatchObject({ itemId: 'I1', reasons: { learnedRule: true } });
  });

  it('suggests the party a text was matched to before, where the name alone contradicts it', () => {
    const line = entry('L1', { description: 'TRF SEPA P/ CLINICA DO SORRISO LDA' });
    const items = [transfer('T1', 'P1'), transfer('T2', 'P2', { counterpartyName: 'Dr. Rui Costa' })];
    expect(reconcile([line], items).suggestions).toEqual([]);
    const learned = new Map([['CLINICA SORRISO', 'P2']]);
    const r = reconcile([line], items, { learned });
    expect(r.suggestions.map((s) => s.itemIds[0])).toEqual(['T2']);
    const [best] = candidatesFor(line, items, { learnedPartyId: 'P2' });
    expect(best).toMatchObject({ itemId: 'T2', reasons: { learnedRule: true } });
    expect(candidatesFor(line, items).every((c) => !c.reasons.learnedRule)).toBe(true);
  });

  it('speaks only where the name is silent: a short print another customer taught does not outweigh the names', () => {
    const line = entry('L1', { amountCents: 2500, description: 'TRF SEPA J SILVA' });
    const items = [
      {
        id: 'JOANA',
        type: 'invoice',
        direction: 'in',
        amountCents: 2500,
        date: '2026-06-07',
        counterpartyName: 'Joana Silva',
        partyId: 'P1',
      },
      {
        id: 'JOAO',
        type: 'invoice',
        direction: 'in',
        amountCents: 2500,
        date: '2026-06-07',
        counterpartyName: 'João Silva',
        partyId: 'P2',
      },
    ] satisfies ExpectedItem[];
    // "J SILVA" was João's last month; both names still agree as well: a person chooses.
    const r = reconcile([line], items, { learned: new Map([['J SILVA', 'P2']]) });
    expect(r.suggestions[0]!.confidence).toBeLessThan(0.95);
    expect(candidatesFor(line, items, { learnedPartyId: 'P2' }).every((c) => !c.reasons.learnedRule)).toBe(
      true,
    );
  });

  // A counterpart the printed name and the learned rule both point at is one pair of the line, not two:
  // lines with one pair are what `keptToRail` judges the statement's rail by (decision 0178), from 1,000.
  it('compares a counterpart the name and the rule both find once', () => {
    const first = ['Ana', 'Rui', 'Marta', 'Tiago', 'Sofia', 'Bruno', 'Inês', 'Nuno', 'Carla', 'Hugo'];
    const last = [
      'Lopes',
      'Costa',
      'Simões',
      'Tavares',
      'Moura',
      'Pinto',
      'Neves',
      'Rocha',
      'Sousa',
      'Faria',
    ];
    const names = first.flatMap((f) => last.flatMap((l) => last.map((m) => `${f} ${m} ${l}`)));
    const items = names.map((name, k) => transfer(`I${k}`, `P${k}`, { counterpartyName: name }));
    const lines = names.map((name, k) =>
      entry(`L${k}`, { lineNumber: k + 1, description: `TRF SEPA P/ ${name}` }),
    );
    const learned = new Map(lines.map((line, k) => [counterpartyText(line)!, `P${k}`]));
    expect(learned.size).toBe(1000);
    const r = reconcile(lines, items, { learned });
    expect(r.suggestions.filter((s) => s.entryIds[0]!.slice(1) === s.itemIds[0]!.slice(1))).toHaveLength(
      1000,
    );
    expect(r.keptToRail).toBe(true);
  });

  it('keeps a credit’s payer IBAN as a text of its own, first (decision 0160)', () => {
    expect(ibanText('PT50 0035 0651 0000 0123 4567 8')).toBe('IBAN:PT50003506510000012345678');
    expect(ibanText(null)).toBeNull();
    const line = {
      counterpartyName: null,
      counterpartyIban: 'PT50003506510000012345678',
      description: 'TRF CR SEPA+ DE J SILVA',
    };
    expect(learnedTexts(line)).toEqual(['IBAN:PT50003506510000012345678', 'J SILVA']);
    expect(ruleFor(learnedTexts(line), new Map([['J SILVA', 'P1']]))).toEqual({
      text: 'J SILVA',
      partyId: 'P1',
    });
    expect(
      ruleFor(
        learnedTexts(line),
        new Map([
          ['J SILVA', 'P1'],
          ['IBAN:PT50003506510000012345678', 'P2'],
        ]),
      ),
    ).toEqual({ text: 'IBAN:PT50003506510000012345678', partyId: 'P2' });
  });

  it('an IBAN matched to one customer before outweighs a name two customers print alike', () => {
    const line = entry('L1', {
      amountCents: 2500,
      description: 'TRF SEPA J SILVA',
      counterpartyIban: 'PT50003506510000012345678',
    });
    const invoice = (id: string, name: string, partyId: string): ExpectedItem => ({
      id,
      type: 'invoice',
      direction: 'in',
      amountCents: 2500,
      date: '2026-06-07',
      counterpartyName: name,
      partyId,
    });
    const items = [invoice('JOANA', 'Joana Silva', 'P1'), invoice('JOAO', 'João Silva', 'P2')];
    expect(reconcile([line], items).suggestions[0]!.confidence).toBeLessThan(SURE_SUGGESTION);
    const r = reconcile([line], items, { learned: new Map([['IBAN:PT50003506510000012345678', 'P2']]) });
    expect(r.suggestions.map((s) => [s.itemIds[0], s.confidence])).toEqual([['JOAO', SURE_SUGGESTION]]);
    const [best] = candidatesFor(line, items, { learnedPartyId: 'P2', learnedByIban: true });
    expect(best).toMatchObject({ itemId: 'JOAO', reasons: { learnedRule: true } });
  });

  it('with rules: never depends on input order, uses each line and item once, exact amounts only (property)', () => {
    const texts = ['CLINICA SORRISO', 'ANA LOPES', 'CONSULTORIO CENTRAL', 'RUI COSTA', 'MBWAY 964XXX072'];
    const parties = ['P1', 'P2', 'P3'];
    const day = fc.integer({ min: 1, max: 9 }).map((d) => `2026-06-0${d}`);
    const amount = fc.constantFrom(5000, 12_000);
    const month = fc.record({
      lines: fc.array(fc.record({ text: fc.constantFrom(...texts), amount, day }), { maxLength: 25 }),
      items: fc.array(
        fc.record({
          party: fc.constantFrom(...parties),
          name: fc.constantFrom('Ana Lopes', 'Rui Costa', null),
          amount,
          day,
        }),
        { maxLength: 25 },
      ),
      rules: fc.dictionary(fc.constantFrom(...texts), fc.constantFrom(...parties)),
      seed: fc.integer(),
    });
    const shuffle = <T>(list: T[], seed: number) =>
      list
        .map((v, k) => ({ v, k: Math.imul(k + 1, 2654435761 ^ seed) >>> 0 }))
        .sort((a, b) => a.k - b.k)
        .map((x) => x.v);
    fc.assert(
      fc.property(month, ({ lines, items, rules, seed }) => {
        const entries = lines.map((l, k) =>
          entry(`L${k}`, {
            lineNumber: k + 1,
            amountCents: -l.amount,
            bookingDate: l.day,
            description: `TRF SEPA P/ ${l.text}`,
          }),
        );
        const expected = items.map((i, k) =>
          transfer(`I${k}`, i.party, { amountCents: i.amount, date: i.day, counterpartyName: i.name }),
        );
        const learned = new Map(Object.entries(rules));
        const r = reconcile(entries, expected, { learned });
        expect(reconcile(shuffle(entries, seed), shuffle(expected, seed), { learned })).toEqual(r);
        const usedLines = r.suggestions.flatMap((s) => s.entryIds);
        const usedItems = r.suggestions.flatMap((s) => s.itemIds);
        expect(new Set(usedLines).size).toBe(usedLines.length);
        expect(new Set(usedItems).size).toBe(usedItems.length);
        const byId = new Map(expected.map((i) => [i.id, i]));
        const lineOf = new Map(entries.map((e) => [e.id, e]));
        for (const s of r.suggestions) {
          expect(s.differenceCents).toBe(0);
          expect(-lineOf.get(s.entryIds[0]!)!.amountCents).toBe(byId.get(s.itemIds[0]!)!.amountCents);
        }
      }),
      { numRuns: 300 },
    );
  });
});

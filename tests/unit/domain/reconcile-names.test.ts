// Names as banks print them, against the names we expect (decision 0142), and the suggestions built on
// them. The bank texts are real: a BPI account export published in
// github.com/vmsebas/gestor-condominos-easypanel-v2, migrations/analyze_full_statement.py ("TRF CR SEPA+
// 0000030 DE JOAO MANUEL FERNANDES LONGO", its payee column cut at 23 characters: "Imposto De Selo Out
// 202"), and the forms /work/shared/notes/banking-formats.md lists ("TRF CR SEPA+ 0000040 DE …").

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { signedExpected } from '../../../domain/reconcile/features';
import { ItemNames } from '../../../domain/reconcile/item-names';
import {
  type ExpectedItem,
  type MatchEntry,
  NAMED_AT_MOST,
  reconcile,
  SURE_SUGGESTION,
} from '../../../domain/reconcile/match';
import {
  bankCase,
  counterpartyAgreement,
  IBAN_SIDE,
  mayBeCutAtSpace,
  nameAgreement,
  nameWords,
  PHONE_SIDE,
  printedName,
} from '../../../domain/reconcile/names';
import { matchEntry } from '../../support/match-entries';

const entry = (id: string, over: Partial<MatchEntry>): MatchEntry =>
  matchEntry({ id, bookingDate: '2026-06-05', amountCents: 2500, ...over });
const invoice = (id: string, name: string, over: Partial<ExpectedItem> = {}): ExpectedItem => ({
  id,
  type: 'invoice',
  direction: 'in',
  amountCents: 2500,
  date: '2026-06-04',
  counterpartyName: name,
  ...over,
});
const agree = (text: string, name: string) => nameAgreement(nameWords(text), nameWords(name));

describe('bank text normalisation, one rule at a time', () => {
  it('upper case, accents dropped', () => {
    expect(bankCase('João Simões Gonçalves, Conceição')).toBe('JOAO SIMOES GONCALVES, CONCEICAO');
    expect(agree('TRF CR SEPA+ 0000030 DE JOAO MANUEL FERNANDES LONGO', 'João Manuel Fernandes Longo')).toBe(
      1,
    );
  });

  it("drops the bank's own words, P/ and anything with a digit (sequence numbers, phones, references)", () => {
    expect(nameWords('TRF CR SEPA+ 0000030 DE JOAO MANUEL FERNANDES LONGO')).toEqual([
      'JOAO',
      'MANUEL',
      'FERNANDES',
      'LONGO',
    ]);
    expect(nameWords('TRF CR INTRAB 492 DE VITOR MANUEL SEBASTIAN RODRIGUES')).toEqual([
      'VITOR',
      'MANUEL',
      'SEBASTIAN',
      'RODRIGUES',
    ]);
    expect(nameWords('TRF 21 DE JOAO MANUEL FERNANDES LONGO')).toEqual([
      'JOAO',
      'MANUEL',
      'FERNANDES',
      'LONGO',
    ]);
    expect(nameWords('TRF CR SEPA+ 0000040 DE ADQUIRENTE EXEMPLO')).toEqual(['ADQUIRENTE', 'EXEMPLO']);
    expect(nameWords('DD SU ELETRICIDADE, S.A. 100000862991')).toEqual(['SU', 'ELETRICIDADE', 'S', 'A']);
    expect(nameWords('TRF SEPA P/ J SIMOES DEVOL')).toEqual(['J', 'SIMOES']);
    expect(nameWords('MB WAY 912345678')).toEqual([]);
    expect(nameWords('TRF CR CLINICA SORRISO po_9')).toEqual(['CLINICA', 'SORRISO']);
  });

  it('takes a last word the bank cut as the word it begins, and only the last', () => {
    // The export cuts at a field's width ("Imposto De Selo Out 202"): here a name cut at 26 characters.
    const cut = 'VITOR MANUEL SEBASTIAN RODRIGUES'.slice(0, 26);
    expect(cut).toBe('VITOR MANUEL SEBASTIAN ROD');
    expect(agree(cut, 'Vítor Manuel Sebastian Rodrigues')).toBeGreaterThan(0.8);
    // A word cut short inside the text is another word: "MARIA" is not "Mariana".
    expect(agree('MARIA ROCHA', 'Mariana Rocha')).toBe(0);
    expect(agree('MARIA', 'Mariana Rocha')).toBeGreaterThan(0);
  });

  it('reads a name cut mid-word as any name it could be cut from: the words after the cut tell nothing (decision 0174)', () => {
    // Seen on the bench month: the longer name was passed over for the shorter, and the shorter called sure.
    expect(agree('PEDRO CONCEICAO TEIXEIR', 'Pedro Conceição Teixeira Fonseca')).toBe(
      agree('PEDRO CONCEICAO TEIXEIR', 'Pedro Conceição Teixeira'),
    );
    // A last word one typo away is no cut: the print still ends early against a longer name.
    expect(agree('JOAO SIMOSE', 'João Simões Costa')).toBeLessThan(agree('JOAO SIMOSE', 'João Simões'));
    // A print ending on a whole word still ends early against a longer name.
    expect(agree('PEDRO CONCEICAO', 'Pedro Conceição Teixeira')).toBeLessThan(
      agree('PEDRO CONCEICAO', 'Pedro Conceição'),
    );
  });

  it('reads the last printed word as the surname when the expected name ends with it, even spelt earlier too (decision 0174)', () => {
    expect(agree('F PEREIRA', 'Fátima Conceição Pereira Pereira')).toBe(
      agree('F PEREIRA', 'Francisco Pinto Pereira'),
    );
    expect(agree('V ALMEIDA', 'Vítor Almeida Almeida')).toBe(
      agree('V ALMEIDA', 'Vítor Conceição Martins Almeida'),
    );
    // A middle word is still found where it stands.
    expect(agree('JOAO PEDRO SIMOES', 'João Pedro Simões Pedro')).toBeGreaterThan(0);
  });

  it('reads single letters as initials of the expected words, in order, the first being the first name', () => {
    expect(agree('J LONGO', 'João Manuel Fernandes Longo')).toBeGreaterThan(0);
    expect(agree('J M F LONGO', 'João Manuel Fernandes Longo')).toBeGreaterThan(
      agree('J LONGO', 'João Manuel Fernandes Longo'),
    );
    expect(agree('J SIMOES', 'Maria Simões')).toBe(0); // another first name
    expect(agree('A PINTO', 'Miguel José Pinto Araújo')).toBe(0); // the A is not the first name's
    expect(agree('M J', 'Maria João Simões')).toBe(0); // initials alone say too little
  });

  it('skips middle names the bank (or the payer) left out, and refuses a word the expected name lacks', () => {
    // The same export's payee column reads "VITOR RODRIGUES" and "Joao Longo" for these payers.
    expect(agree('VITOR RODRIGUES', 'Vítor Manuel Sebastian Rodrigues')).toBeGreaterThan(0.5);
    expect(agree('JOAO LONGO', 'João Manuel Fernandes Longo')).toBeGreaterThan(0.5);
    expect(agree('BEATRIZ PIRES', 'Beatriz Rodrigues Faria')).toBe(0);
  });

  it('forgives one typo in a word of four letters or more: a letter changed or two neighbours swapped', () => {
    expect(agree('JOAO SIMEOS', 'João Simões')).toBeGreaterThan(0);
    expect(agree('JOAO SIMOAS', 'João Simões')).toBeGreaterThan(0);
    expect(agree('JOAO SMIOAS', 'João Simões')).toBe(0); // two typos
    expect(agree('ANA LUPES', 'Ana Lopes')).toBeGreaterThan(0);
    expect(agree('ANA LOPES', 'Ana Lopes')).toBeGreaterThan(agree('ANA LUPES', 'Ana Lopes'));
  });

  it('a line with words but no name (a phone number) contradicts a named item; nothing at all says nothing', () => {
    const phone = printedName(entry('L1', { description: 'MB WAY 912345678' }));
    expect(
      counterpartyAgreement(entry('L1', {}), invoice('I1', 'Ana Lopes'), phone, nameWords('Ana Lopes')),
    ).toBe(0);
    const blank = printedName(entry('L2', { description: '' }));
    expect(
      counterpartyAgreement(entry('L2', {}), invoice('I1', 'Ana Lopes'), blank, nameWords('Ana Lopes')),
    ).toBe(0.5);
    const named = printedName(entry('L3', { description: 'TRF SEPA ANA LOPES', counterpartyIban: 'PT50A' }));
    expect(
      counterpartyAgreement(
        { counterpartyIban: 'PT50A' },
        { counterpartyIban: 'PT50B' },
        named,
        nameWords('Ana Lopes'),
      ),
    ).toBe(0);
  });
});

// Real texts (decision 0151): a Millennium credit prints what the payer typed before "DE" and the payer
// ("TRF CRED SEPA+ ORDENADO DE ASSOCIACAO DA…", a budgeting project's rules for its owner's statements);
// BPI prints a sequence number there ("TRF CR INTRAB 657 DE VITOR MANUEL SEBASTIAN RODRIGUES").
describe('a credit received: what the payer typed is no part of the name', () => {
  it('reads the name after the first DE following SEPA+ or INTRAB, and other texts whole', () => {
    const words = (description: string) => printedName(entry('L1', { description })).words;
    expect(words('TRF CRED SEPA+ ORDENADO DE ASSOCIACAO DA')).toEqual(['ASSOCIACAO']);
    expect(words('TRF CR INTRAB 657 DE VITOR MANUEL SEBASTIAN RODRIGUES')).toEqual([
      'VITOR',
      'MANUEL',
      'SEBASTIAN',
      'RODRIGUES',
    ]);
    expect(words('Trf Cred Sepa+ consulta junho de Maria de Fátima Sousa')).toEqual([
      'MARIA',
      'FATIMA',
      'SOUSA',
    ]);
    expect(words('TRF CR SEPA+ DE MARIA DE FATIMA SOUSA')).toEqual(['MARIA', 'FATIMA', 'SOUSA']);
    // Not a credit: an outgoing transfer's name keeps its own DE.
    expect(words('TRF SEPA P/ MARIA DE FATIMA SOUSA DEVOL')).toEqual(['MARIA', 'FATIMA', 'SOUSA']);
    // A name field the bank filled is read as it is.
    expect(
      printedName(entry('L1', { description: 'TRF CRED SEPA+ CONSULTA DE X', counterpartyName: 'ANA LOPES' }))
        .words,
    ).toEqual(['ANA', 'LOPES']);
  });

  it('finds the payer of a credit whose typed text comes first, surely when nobody else fits', () => {
    const r = reconcile(
      [entry('L1', { description: 'TRF CRED SEPA+ CONSULTA DE MARIA SILVA' })],
      [invoice('I1', 'Maria Silva'), invoice('I2', 'Rui Costa')],
    );
    expect(r.suggestions.map((s) => [s.itemIds[0], s.confidence])).toEqual([['I1', SURE_SUGGESTION]]);
  });
});

describe('a print a field could have ended at a space (decision 0178)', () => {
  const cut = (text: string) =>
    mayBeCutAtSpace(printedName({ counterpartyName: null, description: text }).words);

  it('is one at least one character short of the narrowest field banks cut names to (18)', () => {
    expect(cut('TRF SEPA MARGARIDA QUINTAS')).toBe(true); // 17 characters
    expect(cut('TRF CR SEPA+ DE CONCEICAO ASSUNCAO')).toBe(true); // 18
    expect(cut('MB WAY FRANCISCO GONCALVES MAGALHAES')).toBe(true);
    expect(cut('TRF SEPA MARIANA QUINTAS')).toBe(false); // 15: the whole name
    expect(cut('TRF SEPA ANA LOPES')).toBe(false);
  });

  it('is never a print with initials, nor a single word', () => {
    expect(cut('TRF SEPA M C GONCALVES MAGALHAES')).toBe(false);
    expect(cut('TRF SEPA MAGALHAESGONCALVESFERREIRA')).toBe(false);
  });
});

describe('suggestions by name', () => {
  it('gives two 25 € payments of one day to the right two invoices, not first come by date', () => {
    const items = [
      invoice('A', 'Sérgio Valente Tavares', { date: '2026-06-05' }),
      invoice('B', 'Sofia André Monteiro Tavares', { date: '2026-06-04' }),
    ];
    // Both print only initials and the surname; the nearer invoice by date is A for both.
    const lines = [
      entry('L1', { description: 'MB WAY S M TAVARES' }),
      entry('L2', { description: 'TRF SEPA S V TAVARES' }),
    ];
    const r = reconcile(lines, items);
    const to = Object.fromEntries(r.suggestions.map((s) => [s.entryIds[0], s.itemIds[0]]));
    expect(to).toEqual({ L1: 'B', L2: 'A' });
  });

  it('finds the invoice among many of the same amount and day, not only the nearest twenty', () => {
    const items = Array.from({ length: 60 }, (_, k) =>
      invoice(`I${String(k).padStart(2, '0')}`, `Cliente ${'ABCDEFGHIJKLMNOPQRSTUVWXYZ'[k % 26]}${k} Silva`),
    );
    items.push(invoice('Z', 'Maria Conceição Magalhães', { date: '2026-06-02' }));
    const r = reconcile([entry('L1', { description: 'TRF SEPA M C MAGALHAES' })], items);
    expect(r.suggestions.map((s) => s.itemIds[0])).toEqual(['Z']);
  });

  it('compares at most NAMED_AT_MOST counterparts a name points at, those of least date cost, and is never sure beyond (decision 0180)', () => {
    // Every counterpart's name reads "CLINICA" (the number is no word): the name tells none apart. A SEPA
    // credit of Friday pays Thursday's document (the rail's day); the others, of Monday, are off the rail.
    const clinic = (id: string, date: string, k: number) =>
      invoice(id, `Clinica ${k}`, { date, partyId: `P-${id}` });
    const offRail = (count: number) =>
      Array.from({ length: count }, (_, k) => clinic(`C${String(k).padStart(3, '0')}`, '2026-06-01', k));
    const onRail = clinic('Z', '2026-06-04', 999); // last by id: kept for its date cost, not its index
    const line = entry('L1', { description: 'TRF CR SEPA+ 0000040 DE CLINICA 999 LDA' });
    const said = (items: ExpectedItem[]) =>
      reconcile([line], items, { railKept: true }).suggestions.map((x) => [x.itemIds[0], x.confidence]);
    // Up to the bound, the payers keep to the rail: the others are no rivals and the pair is sure.
    expect(said([...offRail(NAMED_AT_MOST - 1), onRail])).toEqual([['Z', SURE_SUGGESTION]]);
    // One more and the line is cut: still the rail's document first, but more may lie beyond unread.
    const cut = said([...offRail(NAMED_AT_MOST), onRail]);
    expect(cut.map(([id]) => id)).toEqual(['Z']);
    expect(cut[0]![1]).toBeLessThan(SURE_SUGGESTION);
  });

  it('a cut line compares the counterparts of its cheapest days, none of a dearer day beside them', () => {
    // 75 counterparts read "CLINICA" around a Wednesday's MB WAY credits (the rail books the same day):
    // Wednesday's cost least, Tuesday's next, Thursday's (after the lines) last. Each of the 40 lines
    // compares Wednesday's 25 and Tuesday's first 15, and the 40 take those.
    const day = (d: string, from: number) =>
      Array.from({ length: 25 }, (_, k) =>
        invoice(`${d}${String(k).padStart(2, '0')}`, `Clinica ${from + k}`, {
          date: `2026-06-${d === 'T' ? '16' : d === 'W' ? '17' : '18'}`,
        }),
      );
    const tuesday = day('T', 0);
    const wednesday = day('W', 100);
    const thursday = day('U', 200);
    const lines = Array.from({ length: NAMED_AT_MOST }, (_, k) =>
      entry(`L${String(k).padStart(2, '0')}`, {
        lineNumber: k + 1,
        bookingDate: '2026-06-17',
        description: `TRF MB WAY DE CLINICA ${k}`,
      }),
    );
    const taken = reconcile(lines, [...tuesday, ...wednesday, ...thursday]).suggestions;
    expect(taken.map((s) => s.itemIds[0]!).sort()).toEqual(
      [...tuesday.slice(0, 15), ...wednesday].map((i) => i.id).sort(),
    );
  });

  it('scores a pair 0.95 only when each is the only best of the other', () => {
    const alone = reconcile(
      [entry('L1', { description: 'TRF SEPA J SIMOES' })],
      [invoice('I1', 'João Simões')],
    );
    expect(alone.suggestions[0]!.confidence).toBe(SURE_SUGGESTION);
    // Two invoices fit "J SIMOES" as well: a person has to choose.
    const twins = reconcile(
      [entry('L1', { description: 'TRF SEPA J SIMOES' })],
      [invoice('I1', 'João Simões'), invoice('I2', 'José Simões')],
    );
    expect(twins.suggestions[0]!.confidence).toBeLessThan(SURE_SUGGESTION);
    // Two lines print the same: either could be the invoice's.
    const sameLines = reconcile(
      [entry('L1', { description: 'TRF SEPA J SIMOES' }), entry('L2', { description: 'MB WAY J SIMOES' })],
      [invoice('I1', 'João Simões')],
    );
    expect(sameLines.suggestions.map((x) => x.confidence)).toEqual([expect.any(Number)]);
    expect(sameLines.suggestions[0]!.confidence).toBeLessThan(SURE_SUGGESTION);
    // The whole name is the invoice's only best line: it wins it, surely.
    const twoLines = reconcile(
      [entry('L1', { description: 'TRF SEPA J SIMOES' }), entry('L2', { description: 'MB WAY JOAO SIMOES' })],
      [invoice('I1', 'João Simões')],
    );
    expect(twoLines.suggestions.map((x) => [x.entryIds[0], x.confidence])).toEqual([['L2', SURE_SUGGESTION]]);
  });
});

describe('the matcher on name-heavy months (properties)', () => {
  const FIRST = ['João', 'José', 'Maria', 'Mariana', 'Ana', 'Sofia', 'Sérgio'];
  const LAST = ['Simões', 'Silva', 'Tavares', 'Lopes', 'Conceição'];
  const name = fc
    .tuple(
      fc.constantFrom(...FIRST),
      fc.option(fc.constantFrom(...FIRST), { nil: undefined }),
      fc.constantFrom(...LAST),
    )
    .map(([a, b, c]) => [a, b, c].filter(Boolean).join(' '));
  const printed = (full: string, style: number, width: number) => {
    const words = bankCase(full).split(' ');
    const text = style === 0 ? `${words[0]![0]} ${words[words.length - 1]}` : words.join(' ');
    return text.slice(0, width).trim();
  };
  const day = fc.integer({ min: 1, max: 9 }).map((d) => `2026-06-0${d}`);
  const amount = fc.constantFrom(500, 2500, -2500);
  const month = fc
    .tuple(
      fc.array(
        fc.record({
          name,
          amount,
          day,
          style: fc.integer({ min: 0, max: 1 }),
          width: fc.integer({ min: 6, max: 30 }),
          ref: fc.option(fc.constantFrom('E2E-1', 'E2E-2'), { nil: null }),
        }),
        { maxLength: 40 },
      ),
      fc.array(fc.record({ name, amount, day }), { maxLength: 20 }),
    )
    .map(([paid, open]) => {
      const items: ExpectedItem[] = [...paid, ...open].map((p, k) => ({
        id: `I${k}`,
        type: p.amount < 0 ? 'sepa' : 'invoice',
        amountCents: Math.abs(p.amount),
        date: p.day,
        endToEndId: ('ref' in p ? p.ref : null) as string | null,
        counterpartyName: p.name,
      }));
      const entries = paid.map((p, k) =>
        entry(`L${k}`, {
          lineNumber: k + 1,
          amountCents: p.amount === 500 && k % 3 === 0 ? 501 : p.amount, // some amounts differ
          bookingDate: p.day,
          description: `TRF SEPA ${printed(p.name, p.style, p.width)}`,
          endToEndId: p.ref,
        }),
      );
      return { entries, items };
    });
  const shuffle = <T>(list: T[], seed: number) =>
    list
      .map((v, k) => ({ v, k: Math.imul(k + 1, 2654435761 ^ seed) >>> 0 }))
      .sort((a, b) => a.k - b.k)
      .map((x) => x.v);

  it('never depends on input order, uses each line and counterpart at most once, and records any amount difference', () => {
    fc.assert(
      fc.property(month, fc.integer(), ({ entries, items }, seed) => {
        const r = reconcile(entries, items);
        expect(reconcile(shuffle(entries, seed), shuffle(items, seed))).toEqual(r);
        const usedLines = [...r.matches, ...r.suggestions].flatMap((m) => m.entryIds);
        const usedItems = [...r.matches, ...r.suggestions].flatMap((m) => m.itemIds);
        expect(new Set(usedLines).size).toBe(usedLines.length);
        expect(new Set(usedItems).size).toBe(usedItems.length);
        const byId = new Map(items.map((i) => [i.id, i]));
        const lines = new Map(entries.map((e) => [e.id, e]));
        for (const m of [...r.matches, ...r.suggestions]) {
          const expected = m.itemIds.reduce((sum, id) => sum + signedExpected(byId.get(id)!), 0);
          // A link between differing amounts says so: its difference is the bank's minus the expected.
          expect(m.differenceCents).toBe(lines.get(m.entryIds[0]!)!.amountCents - expected);
        }
        for (const s of r.suggestions) expect(s.differenceCents).toBe(0);
      }),
      { numRuns: 300 },
    );
  });
});

describe('the counterparts’ names as the matcher keeps them (ItemNames)', () => {
  it('gives one id to names that read alike and another to a different reading, and keeps each item’s sides', () => {
    const names = new ItemNames([
      { counterpartyName: 'Clínica 1' },
      { counterpartyName: 'Clinica 2', counterpartyIban: 'PT50000201231234567890154' },
      { counterpartyName: 'Ana Lopes', counterpartyPhone: '+351 964 123 072' },
      {
        counterpartyName: 'Clínica 1',
        counterpartyIban: 'PT50000201231234567890154',
        counterpartyPhone: '964123072',
      },
      {},
    ]);
    expect(names.listId(0)).toBe(names.listId(1));
    expect(names.listId(3)).toBe(names.listId(0));
    expect(names.listId(2)).not.toBe(names.listId(0));
    expect(names.listId(4)).not.toBe(names.listId(0));
    expect(names.words(1)).toEqual(nameWords('Clinica 2'));
    expect(names.words(2)).toEqual(['ANA', 'LOPES']);
    expect(names.words(4)).toEqual([]);
    expect([...names.sides]).toEqual([0, IBAN_SIDE, PHONE_SIDE, IBAN_SIDE | PHONE_SIDE, 0]);
  });
});

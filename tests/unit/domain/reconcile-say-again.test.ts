// Suggestions said again after a person's decision (decision 0179): over the open lines of one amount and
// the counterparts still open; a copy of a decided line is never sure, nor clears a rival (decision 0185); the whole file's rail judgement
// carried in (`railKept`), since one amount's lines are too few to judge it.

import { describe, expect, it } from 'vitest';
import {
  type ExpectedItem,
  type MatchEntry,
  reconcile,
  SURE_SUGGESTION,
} from '../../../domain/reconcile/match';
import { printOf } from '../../../domain/reconcile/print';
import { sayAgain } from '../../../domain/reconcile/say-again';
import { matchEntry } from '../../support/match-entries';

const line = (id: string, description: string, over: Partial<MatchEntry> = {}): MatchEntry =>
  matchEntry({ id, bookingDate: '2026-06-08', amountCents: 2500, description, ...over });
const invoice = (id: string, name: string, partyId: string, date = '2026-06-08'): ExpectedItem => ({
  id,
  type: 'invoice',
  direction: 'in',
  amountCents: 2500,
  date,
  counterpartyName: name,
  partyId,
});
const said = (suggestions: { entryIds: string[]; itemIds: string[]; confidence: number }[]) =>
  Object.fromEntries(suggestions.map((s) => [s.entryIds[0]!, [s.itemIds[0]!, s.confidence]]));

describe('suggestions said again after a decision', () => {
  const joao = invoice('JOAO', 'João Simões', 'C1');
  const joana = invoice('JOANA', 'Joana Simões', 'C2');
  const first = line('L1', 'TRF SEPA J SIMOES');
  const second = line('L2', 'MB WAY J SIMOES');

  it('is sure of the line whose rival a person took, where the import was sure of neither', () => {
    const imported = said(reconcile([first, second], [joao, joana]).suggestions);
    expect(imported.L1![1]).toBeLessThan(SURE_SUGGESTION);
    expect(imported.L2![1]).toBeLessThan(SURE_SUGGESTION);
    // L1 matched to João's invoice: Joana's is the only one left for L2.
    expect(said(sayAgain([second], [first], [joana], {}))).toEqual({ L2: ['JOANA', SURE_SUGGESTION] });
  });

  it('never says sure a line printed as a decided one: a bank that booked a line twice', () => {
    // The copy differs only in its position and the bank's own reference of the entry.
    const copy = { ...first, id: 'L9', lineNumber: 9, bankReference: 'OTHER-REF' };
    expect(printOf(copy)).toBe(printOf(first));
    const again = said(sayAgain([copy], [first], [joana], {}));
    expect(again.L9![0]).toBe('JOANA');
    expect(again.L9![1]).toBeLessThan(SURE_SUGGESTION);
    // Any other field told apart: a payment of its own.
    for (const other of [
      { bookingDate: '2026-06-09' },
      { description: 'MB WAY J SIMOES' },
      { endToEndId: 'E2E-2' },
    ])
      expect(printOf({ ...copy, ...other })).not.toBe(printOf(first));
  });

  it('clears no other line’s rival with a copy of a decided line (decision 0185)', () => {
    // Lúcia's MB WAY of Tuesday was decided; the bank's copy of it agrees with her Monday invoice best. The
    // SEPA credit "L FONSECA" may be Lúcia's (Monday, the rail's day) or Luís's (Tuesday): a person's choice.
    const decided = line('L1', 'MB WAY LUCIA FONSECA', { bookingDate: '2026-06-09' });
    const copy = { ...decided, id: 'L9', lineNumber: 9 };
    const credit = line('L2', 'TRF SEPA L FONSECA', { bookingDate: '2026-06-09' });
    const fonsecas = [
      invoice('LUCIA', 'Lúcia Fonseca', 'C1', '2026-06-08'),
      invoice('LUIS', 'Luís Fonseca', 'C2', '2026-06-09'),
    ];
    const again = said(sayAgain([copy, credit], [decided], fonsecas, { railKept: true }));
    expect(again.L9![1]).toBeLessThan(SURE_SUGGESTION);
    expect(again.L2![1]).toBeLessThan(SURE_SUGGESTION);
    // Without the decided line, the same two lines: the MB WAY is Lúcia's surely, and so the credit Luís's.
    expect(said(sayAgain([copy, credit], [], fonsecas, { railKept: true }))).toEqual({
      L9: ['LUCIA', SURE_SUGGESTION],
      L2: ['LUIS', SURE_SUGGESTION],
    });
  });

  it('takes no document for a copy of a decided line by its account (decision 0185)', () => {
    // João's account paid "J SIMOES" (decided) and, in full, his Monday invoice; the bank's copy of the decided
    // line would otherwise read as João's payment of his Friday invoice.
    const account = { bookingDate: '2026-06-09', counterpartyIban: 'PT50003500000000000000101' };
    const decided = line('L1', 'TRF SEPA J SIMOES', account);
    const copy = { ...decided, id: 'L9', lineNumber: 9 };
    const whole = line('L2', 'TRF SEPA JOAO SIMOES', account);
    const open = [
      invoice('JOAO-MON', 'João Simões', 'C1'),
      invoice('JOAO-FRI', 'João Simões', 'C1', '2026-06-05'),
      invoice('JOANA', 'Joana Simões', 'C2'),
    ];
    const again = said(sayAgain([copy, whole], [decided], open, { railKept: true }));
    expect(again.L2).toEqual(['JOAO-MON', SURE_SUGGESTION]);
    expect(again.L9![1]).toBeLessThan(SURE_SUGGESTION);
  });

  it("carries the whole file's judgement of its rail: one amount's lines are too few to make it", () => {
    // Ana Lopes (C2) invoiced Monday, another Ana Lopes (C1) Friday; Tuesday's SEPA credit was sent Monday.
    const tuesday = line('L1', 'TRF SEPA ANA LOPES', { bookingDate: '2026-06-09' });
    const lopes = [
      invoice('A', 'Ana Lopes', 'C1', '2026-06-05'),
      invoice('B', 'Ana Lopes', 'C2', '2026-06-08'),
    ];
    expect(said(sayAgain([tuesday], [], lopes, {})).L1![1]).toBeLessThan(SURE_SUGGESTION);
    expect(said(sayAgain([tuesday], [], lopes, { railKept: false })).L1![1]).toBeLessThan(SURE_SUGGESTION);
    expect(said(sayAgain([tuesday], [], lopes, { railKept: null })).L1![1]).toBeLessThan(SURE_SUGGESTION);
    expect(said(sayAgain([tuesday], [], lopes, { railKept: true }))).toEqual({ L1: ['B', SURE_SUGGESTION] });
    expect(reconcile([tuesday], lopes, { railKept: true }).keptToRail).toBe(true);
    expect(reconcile([tuesday], lopes, { railKept: false }).keptToRail).toBe(false);
    // One line is too few to tell (decision 0184).
    expect(reconcile([tuesday], lopes).keptToRail).toBeNull();
  });

  it('says nothing without lines or counterparts', () => {
    expect(sayAgain([], [first], [joana], {})).toEqual([]);
    expect(sayAgain([second], [first], [], {})).toEqual([]);
  });
});

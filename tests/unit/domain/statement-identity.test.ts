import { describe, expect, it } from 'vitest';
import {
  continuityOf,
  periodsOverlap,
  recognisedBy,
  type StatementIdentity,
  sameStatement,
} from '../../../domain/statements/statement-identity';

const statement = (over: Partial<StatementIdentity> = {}): StatementIdentity => ({
  accountIban: 'PT50003506510000123456714',
  statementId: 'EXT-05',
  sequence: '5',
  periodStart: '2026-05-01',
  periodEnd: '2026-05-31',
  openingBalanceCents: 100_000,
  closingBalanceCents: 90_000,
  ...over,
});

describe('statement identity (docs/decisions/0121)', () => {
  it('the same statement: account, bank id, sequence and period — never without a bank id', () => {
    expect(sameStatement(statement(), statement({ openingBalanceCents: 1 }))).toBe(true);
    expect(sameStatement(statement(), statement({ sequence: '6' }))).toBe(false);
    expect(sameStatement(statement(), statement({ periodEnd: '2026-05-30' }))).toBe(false);
    expect(sameStatement(statement(), statement({ accountIban: 'PT50000201231234567890154' }))).toBe(false);
    expect(sameStatement(statement({ statementId: null }), statement({ statementId: null }))).toBe(false);
  });

  it('periods overlap when their days intersect, unless distinct sequences chain their balances', () => {
    const june = statement({ sequence: '6', periodStart: '2026-06-01', periodEnd: '2026-06-30' });
    expect(periodsOverlap(statement(), june)).toBe(false);
    const halfMay = statement({
      statementId: null,
      sequence: null,
      periodStart: '2026-05-15',
      periodEnd: '2026-06-10',
    });
    expect(periodsOverlap(statement(), halfMay)).toBe(true);
    // Cut on the 31st: the next one opens at the previous closing balance, with the next sequence.
    const cut = statement({
      sequence: '6',
      periodStart: '2026-05-31',
      periodEnd: '2026-06-30',
      openingBalanceCents: 90_000,
    });
    expect(periodsOverlap(statement(), cut)).toBe(false);
    expect(periodsOverlap(cut, statement())).toBe(false);
    // The same cut with balances that do not chain, or without sequences, overlaps.
    expect(periodsOverlap(statement(), { ...cut, openingBalanceCents: 89_000 })).toBe(true);
    expect(periodsOverlap(statement({ sequence: null }), { ...cut, sequence: null })).toBe(true);
  });

  it('a bank reference recognises a line anywhere in the account; content only in an overlapping statement', () => {
    const june = statement({ sequence: '6', periodStart: '2026-06-01', periodEnd: '2026-06-30' });
    expect(recognisedBy(june, statement(), 'BANK_REFERENCE')).toBe('BANK_REFERENCE');
    expect(recognisedBy(june, statement(), 'CONTENT')).toBeNull();
    expect(recognisedBy(statement({ sequence: null }), statement(), 'CONTENT')).toBe('SAME_CONTENT');
  });

  it('continuity: FIRST, CONTINUES by balances (or the next day without them), GAP with its cents, OVERLAP', () => {
    const june = statement({
      sequence: '6',
      periodStart: '2026-06-01',
      periodEnd: '2026-06-30',
      openingBalanceCents: 90_000,
    });
    expect(continuityOf(null, statement())).toEqual({ continuity: 'FIRST', gapCents: null });
    expect(continuityOf(statement(), june)).toEqual({ continuity: 'CONTINUES', gapCents: null });
    expect(continuityOf(statement(), { ...june, openingBalanceCents: 95_000 })).toEqual({
      continuity: 'GAP',
      gapCents: 5_000,
    });
    const noBalances = { openingBalanceCents: null, closingBalanceCents: null, sequence: null };
    expect(continuityOf(statement(noBalances), { ...june, ...noBalances })).toEqual({
      continuity: 'CONTINUES',
      gapCents: null,
    });
    expect(
      continuityOf(statement(noBalances), { ...june, ...noBalances, periodStart: '2026-06-03' }),
    ).toEqual({ continuity: 'GAP', gapCents: null });
    expect(continuityOf(statement(), { ...june, periodStart: '2026-05-20' })).toEqual({
      continuity: 'OVERLAP',
      gapCents: null,
    });
  });
});

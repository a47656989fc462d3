// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { StatementEntry } from '../../../domain/statements/types';
import type { Locale } from '../../../machines/session';
import type { PreviewStatement } from '../../../machines/statement-import';
import type { StatementFileRow } from '../../../src/api/statements';
import { I18nProvider } from '../../../src/i18n/i18n';
import { enGB, ptPT } from '../../support/messages';
import { fillJsdomGaps, layOutTables } from './jsdom-gaps';

const accounts = vi.hoisted(() => [
  {
    accountIban: 'PT50000201231234567890154',
    currency: 'EUR',
    statementCount: 4,
    lastPeriodEnd: '2026-04-30',
    lastClosingBalanceCents: 1_000_00,
  },
  {
    accountIban: 'DE89370400440532013000',
    currency: 'EUR',
    statementCount: 1,
    lastPeriodEnd: '2026-03-31',
    lastClosingBalanceCents: null,
  },
]);
vi.mock('../../../src/api/statements', async (original) => ({
  ...(await original<typeof import('../../../src/api/statements')>()),
  fetchStatementAccounts: async () => accounts,
}));

const { AccountPicker } = await import('../../../src/features/statements/AccountPicker');
const { FilesList } = await import('../../../src/features/statements/FilesList');
const { ParseErrors } = await import('../../../src/features/statements/ParseErrors');
const { PreviewStatements } = await import('../../../src/features/statements/PreviewStatements');
const { SkippedEntries } = await import('../../../src/features/statements/SkippedEntries');
const { PreviewTable } = await import('../../../src/features/statements/PreviewTable');
const { PreviewRows } = await import('../../../src/kernel/preview-rows');
await import('../../../src/features/statements/statements-messages');

beforeAll(fillJsdomGaps);
afterEach(cleanup);

const mount = (node: ReactNode, locale: Locale = 'pt-PT') =>
  render(
    <QueryClientProvider client={new QueryClient()}>
      <I18nProvider initial={locale}>{node}</I18nProvider>
    </QueryClientProvider>,
  );
const fill = (template: string, values: Record<string, string | number>) =>
  template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name]));
const nbsp = (text: string | null | undefined) => (text ?? '').replace(/[\u00a0\u202f]/g, ' ');

const statement = (over: Partial<PreviewStatement>): PreviewStatement => ({
  accountIban: 'PT50000201231234567890154',
  currency: 'EUR',
  statementId: '1',
  sequence: '1',
  periodStart: '2026-05-01',
  periodEnd: '2026-05-31',
  balance: { opening: 100_000, closing: 95_000, consistent: true },
  totalCents: -5_000,
  firstEntry: 0,
  entryCount: 2,
  ...over,
});

describe('the preview, statement by statement', () => {
  it('names each account and period, counts lines in the right plural, and says by how much balances do not add up', () => {
    mount(
      <PreviewStatements
        statements={[
          statement({ entryCount: 1, totalCents: -5_000 }),
          statement({
            accountIban: 'DE89370400440532013000',
            firstEntry: 1,
            entryCount: 2,
            totalCents: -4_610,
            balance: { opening: 10_000, closing: 5_000, consistent: false },
          }),
        ]}
        givenAccount={null}
      />,
    );
    const [first, second] = screen.getAllByTestId('statement-statement');
    expect(nbsp(first?.textContent)).toContain('PT50 0002 0123 1234 5678 9015 4');
    expect(nbsp(first?.textContent)).toContain('01/05/2026 – 31/05/2026');
    // Intl plural rules: "1 linha", never "1 linhas".
    expect(nbsp(first?.textContent)).toContain(' · 1 linha · ');
    expect(nbsp(first?.textContent)).toContain(ptPT.statements.balance.consistent.split(':')[1]?.trim());
    expect(second?.getAttribute('data-mismatch')).toBe('true');
    expect(nbsp(second?.textContent)).toContain(' · 2 linhas · ');
    // 100,00 − 46,10 = 53,90 expected, 50,00 stated: 3,90 € short.
    expect(nbsp(second?.textContent)).toContain(
      fill(ptPT.statements.balance.inconsistent, {
        opening: '100,00 €',
        closing: '50,00 €',
        difference: '-3,90 €',
      }),
    );
  });

  it('says when the file names no account, and shows the one the admin gave', () => {
    const { rerender } = mount(
      <PreviewStatements
        statements={[statement({ accountIban: null, balance: null })]}
        givenAccount={null}
      />,
      'en-GB',
    );
    const row = () => nbsp(screen.getByTestId('statement-statement').textContent);
    expect(row()).toContain(enGB.statements.statement.accountMissing);
    expect(row()).toContain(enGB.statements.balance.none);
    rerender(
      <QueryClientProvider client={new QueryClient()}>
        <I18nProvider initial="en-GB">
          <PreviewStatements
            statements={[statement({ accountIban: null, balance: null })]}
            givenAccount="DE89370400440532013000"
          />
        </I18nProvider>
      </QueryClientProvider>,
    );
    expect(row()).toContain(
      fill(enGB.statements.statement.accountGiven, { iban: 'DE89 3704 0044 0532 0130 00' }),
    );
  });
});

describe('skipped entries', () => {
  it('are counted in the right plural and listed with their line, amount and reason', () => {
    mount(
      <SkippedEntries
        count={1}
        entries={[
          {
            statement: 0,
            line: 41,
            reason: 'PENDING',
            bookingDate: '2026-05-04',
            amountCents: -12_00,
            description: 'CARTAO PENDENTE',
          },
        ]}
      />,
    );
    const skipped = screen.getByTestId('statement-skipped');
    expect(skipped.querySelector('summary')?.textContent).toBe(
      fill(ptPT.statements.skipped.count.one, { count: 1 }),
    );
    expect(nbsp(skipped.querySelector('li')?.textContent)).toBe(
      'Linha 41 · 04/05/2026 · -12,00 € · pendente · CARTAO PENDENTE',
    );
  });

  it('show nothing when there are none', () => {
    mount(<SkippedEntries count={0} entries={[]} />);
    expect(screen.queryByTestId('statement-skipped')).toBeNull();
  });
});

describe('parse errors', () => {
  it('give the column-mapping advice for a CSV only; camt.053 and MT940 are the file itself', () => {
    for (const format of ['camt053', 'mt940'] as const) {
      mount(<ParseErrors format={format} count={1} errors={[{ line: 12, code: 'INVALID_DATE' }]} />, 'en-GB');
      const text = screen.getByTestId('statement-errors').textContent ?? '';
      expect(text).toContain(enGB.statements.errors.advice[format]);
      expect(text).not.toMatch(/mapping/i);
      cleanup();
    }
    mount(<ParseErrors format="csv" count={2} errors={[{ line: 3, code: 'INVALID_DATE' }]} />, 'en-GB');
    expect(screen.getByTestId('statement-errors').textContent).toContain(enGB.statements.errors.advice.csv);
    expect(screen.getByTestId('statement-errors').textContent).toContain(
      fill(enGB.statements.errors.count.other, { count: 2 }),
    );
  });

  it('name each line with its translated problem; a file-wide problem has no line', () => {
    mount(
      <ParseErrors
        format="mt940"
        count={2}
        errors={[
          { line: 7, code: 'MISSING_CLOSING_BALANCE' },
          { line: 0, code: 'NO_ENTRIES' },
        ]}
      />,
    );
    const items = [...screen.getByTestId('statement-errors').querySelectorAll('li')].map(
      (li) => li.textContent,
    );
    expect(items[0]).toBe(
      fill(ptPT.statements.errors.line, {
        line: 7,
        problem: ptPT.statements.parseErrors.MISSING_CLOSING_BALANCE,
      }),
    );
    expect(items[1]).toBe(
      fill(ptPT.statements.errors.file, { problem: ptPT.statements.parseErrors.NO_ENTRIES }),
    );
    expect(items.join(' ')).not.toMatch(/\bLinha 0\b/);
  });
});

describe('the account picker (a file that names no account)', () => {
  const pick = () => {
    const chosen: string[] = [];
    mount(<AccountPicker onChoose={(iban) => chosen.push(iban)} />);
    return { chosen, field: screen.getByRole('combobox', { name: ptPT.statements.account.label }) };
  };

  it('takes the field focus, and arrows + Enter choose a known account', async () => {
    const { chosen, field } = pick();
    expect(document.activeElement).toBe(field);
    await screen.findAllByRole('option');
    fireEvent.keyDown(field, { key: 'ArrowDown' });
    fireEvent.keyDown(field, { key: 'ArrowDown' });
    fireEvent.keyDown(field, { key: 'ArrowUp' });
    const active = field.getAttribute('aria-activedescendant');
    expect(document.getElementById(active ?? '')?.textContent).toContain('PT50 0002 0123 1234 5678 9015 4');
    fireEvent.submit(field);
    expect(chosen).toEqual(['PT50000201231234567890154']);
  });

  it('filters the known accounts by what is typed, spaces and case ignored', async () => {
    const { field } = pick();
    await screen.findAllByRole('option');
    fireEvent.change(field, { target: { value: 'de89 3704' } });
    const options = screen.getAllByRole('option');
    expect(options).toHaveLength(1);
    expect(options[0]?.textContent).toContain('DE89 3704 0044 0532 0130 00');
  });

  it('refuses a mistyped IBAN here, saying why, and sends nothing', async () => {
    const { chosen, field } = pick();
    fireEvent.change(field, { target: { value: 'PT50 0002 0123 1234 5678 9015 5' } });
    fireEvent.submit(field);
    expect(chosen).toEqual([]);
    expect(screen.getByRole('alert').textContent).toBe(
      fill(ptPT.statements.account.errors.INVALID_NATIONAL_CHECKSUM, {
        iban: 'PT50 0002 0123 1234 5678 9015 5',
      }),
    );
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(field);
    fireEvent.change(field, { target: { value: '' } });
    fireEvent.submit(field);
    expect(screen.getByRole('alert').textContent).toBe(ptPT.statements.account.errors.REQUIRED);
    expect(chosen).toEqual([]);
  });

  it('takes a typed IBAN, checked mod-97, in its electronic form', () => {
    const { chosen, field } = pick();
    fireEvent.change(field, { target: { value: 'de89 3704 0044 0532 0130 00' } });
    fireEvent.submit(field);
    expect(chosen).toEqual(['DE89370400440532013000']);
  });
});

describe('the statement files list', () => {
  const file = (id: string, statements: StatementFileRow['statements']): StatementFileRow => ({
    id,
    fileName: `${id}.sta`,
    format: 'MT940',
    accountIban: null,
    openingBalanceCents: null,
    closingBalanceCents: null,
    balanceConsistent: true,
    lineCount: 3,
    doneCount: 0,
    importedAt: '2026-06-01T08:00:00.000Z',
    uploadedBy: null,
    reconciledAt: null,
    reconciledBy: null,
    statements,
    pendingSkipped: 0,
  });
  const april = {
    id: '00000000-0000-4000-8000-000000000001',
    accountIban: 'PT50000201231234567890154',
    currency: 'EUR',
    statementId: '1',
    sequence: '1',
    periodStart: '2026-04-01',
    periodEnd: '2026-04-30',
    openingBalanceCents: 0,
    closingBalanceCents: 1_000,
    balanceConsistent: true,
    mismatchNote: null,
    entryCount: 3,
    lineCount: 3,
    duplicatesSkipped: 0,
    pendingSkipped: 0,
    continuity: 'FIRST' as const,
    gapCents: null,
    previousPeriodStart: null,
    previousPeriodEnd: null,
  };
  const june = {
    ...april,
    id: '00000000-0000-4000-8000-000000000002',
    periodStart: '2026-06-01',
    periodEnd: '2026-06-30',
    openingBalanceCents: 1_250,
    balanceConsistent: false,
    continuity: 'GAP' as const,
    gapCents: 250,
    previousPeriodStart: '2026-04-01',
    previousPeriodEnd: '2026-04-30',
    mismatchNote: 'Saldo final corrigido pelo banco',
  };
  const overlap = {
    ...april,
    id: '00000000-0000-4000-8000-000000000003',
    periodStart: '2026-04-15',
    periodEnd: '2026-05-15',
    continuity: 'OVERLAP' as const,
  };

  it('shows each statement’s continuity — a gap with its amount and previous period, an overlap — and the mismatch note', () => {
    mount(<FilesList files={[file('a', [april]), file('c', [june]), file('d', [overlap])]} />);
    const rows = screen.getAllByRole('row').slice(1);
    const cell = (row: HTMLElement | undefined) =>
      nbsp(within(row as HTMLElement).getAllByRole('cell')[5]?.textContent);
    expect(cell(rows[0])).toContain(ptPT.statements.files.continuity.FIRST);
    expect(cell(rows[1])).toContain(
      fill(ptPT.statements.files.continuity.gapAfter, { gap: '2,50 €', previous: '01/04/2026 – 30/04/2026' }),
    );
    expect(cell(rows[2])).toContain(ptPT.statements.files.continuity.OVERLAP);
    expect(screen.getByTestId('statement-mismatch-note').textContent).toBe(
      fill(ptPT.statements.files.mismatchNote, { note: 'Saldo final corrigido pelo banco' }),
    );
  });

  it('a gap whose previous period is unknown still says by how much', () => {
    mount(
      <FilesList files={[file('c', [{ ...june, previousPeriodStart: null, previousPeriodEnd: null }])]} />,
    );
    const row = screen.getAllByRole('row')[1] as HTMLElement;
    expect(nbsp(within(row).getAllByRole('cell')[5]?.textContent)).toContain(
      fill(ptPT.statements.files.continuity.GAP, { gap: '2,50 €' }),
    );
  });

  it('a file written without an import (no statements) shows a dash', async () => {
    mount(<FilesList files={[file('a', [])]} />);
    await act(async () => {});
    expect(within(screen.getAllByRole('row')[1] as HTMLElement).getAllByRole('cell')[5]?.textContent).toBe(
      '—',
    );
  });
});

describe('the preview table, line by line', () => {
  layOutTables();
  const entry = (lineNumber: number, description: string) => ({
    bookingDate: '2026-05-04',
    valueDate: null,
    amountCents: -7_80,
    currency: 'EUR',
    description,
    counterpartyName: null,
    counterpartyIban: null,
    bankReference: null,
    endToEndId: null,
    batchId: null,
    kind: 'fee' as const,
    returnReason: null,
    lineNumber,
  });

  it('says of each line whether it is new, or from which file it was imported and why', () => {
    const rows = new PreviewRows<StatementEntry>();
    rows.addChunk(3, JSON.stringify([entry(2, 'COMISSAO'), entry(3, 'IMPOSTO SELO'), entry(4, 'TRF NOVA')]));
    rows.addKeys(['k1', 'k2', 'k3']);
    const earlier = (key: string, reason: 'BANK_REFERENCE' | 'SAME_CONTENT') => ({
      key,
      statementFileId: 'f1',
      fileName: 'abril.csv',
      importedAt: '2026-05-08T06:00:00.000Z',
      reason,
    });
    const known = new Map([
      ['k1', earlier('k1', 'BANK_REFERENCE')],
      ['k2', earlier('k2', 'SAME_CONTENT')],
    ]);
    mount(<PreviewTable rows={rows} known={known} />, 'en-GB');
    const cells = screen
      .getAllByRole('row')
      .slice(1)
      .map((row) => row.querySelectorAll('td')[7]?.textContent ?? '');
    expect(cells).toHaveLength(3);
    expect(cells[0]).toMatch(/^Already imported from abril\.csv \(.+\): same bank reference$/);
    expect(cells[1]).toMatch(/: same content in an overlapping statement$/);
    expect(cells[2]).toBe(enGB.statements.preview.new);
  });
});

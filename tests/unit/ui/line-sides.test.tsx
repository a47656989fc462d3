// @vitest-environment jsdom
// The reconciliation table's provider and invoicing cells (issue 31, decision 0156): a line matched to a
// payout imported with its rows shows the net with fees and refunds apart and the invoiced sum with the
// settlements left without invoice marked; a line without payout rows shows its side as before.
import { cleanup, render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { PayoutBreakdown, StatementLineRow } from '../../../contract/reconciliation';
import type { Locale } from '../../../machines/session';
import { InvoicingCell, ProviderCell } from '../../../src/features/statements/LineSides';
import { I18nProvider } from '../../../src/i18n/i18n';
import '../../../src/features/statements/statements-messages';

afterEach(cleanup);

const mount = (node: ReactNode, locale: Locale = 'pt-PT') =>
  render(<I18nProvider initial={locale}>{node}</I18nProvider>);
const text = (testId: string) =>
  (screen.getByTestId(testId).textContent ?? '').replace(/[\u00a0\u202f]/g, ' ');

const breakdown: PayoutBreakdown = {
  grossCents: 25_000,
  feeCents: 640,
  netCents: 19_360,
  charges: { count: 3, netCents: 24_360 },
  refunds: { count: 1, netCents: -5_000 },
  disputes: { count: 0, netCents: 0 },
  invoicedSettlements: 2,
  invoicedCents: 17_000,
  settlementsWithoutInvoice: 1,
};

const line = (over: Partial<StatementLineRow>): StatementLineRow => ({
  id: '00000000-0000-4000-8000-000000000001',
  statementFileId: '00000000-0000-4000-8000-000000000002',
  lineNumber: 1,
  bankAmountCents: 19_360,
  bankDate: '2026-01-14',
  valueDate: null,
  transactionDate: null,
  description: 'STRIPE PAYMENTS po_1',
  counterpartyName: 'Stripe',
  counterpartyIban: null,
  kind: 'transfer',
  returnReason: null,
  status: 'MATCHED',
  matchMethod: 'MANUAL',
  notes: null,
  provider: { amountCents: 19_360, date: '2026-01-14' },
  payoutBreakdown: breakdown,
  invoicing: null,
  sepa: null,
  matches: [],
  suggestion: null,
  candidateCount: 0,
  differenceCents: 0,
  updatedAt: '2026-01-15T10:00:00.000Z',
  ...over,
});

describe('the provider and invoicing cells of a line matched to a payout', () => {
  it('shows the net with fees and refunds apart, the invoiced sum and one without invoice (pt-PT)', () => {
    mount(
      <>
        <ProviderCell row={line({})} />
        <InvoicingCell row={line({})} />
      </>,
    );
    expect(text('provider')).toBe('193,60 € · 14/01/2026');
    expect(screen.getByTestId('provider').hasAttribute('data-differs')).toBe(false);
    expect(text('provider-fees')).toBe('comissões 6,40 €');
    expect(text('provider-refunds')).toBe('1 reembolso -50,00 €');
    expect(screen.queryByTestId('provider-disputes')).toBeNull();
    expect(text('invoicing')).toBe('170,00 €');
    expect(screen.getByTestId('invoicing').title).toBe('2 liquidações faturadas');
    expect(text('invoicing-missing')).toBe('1 sem fatura');
    expect(screen.getByTestId('invoicing-missing').hasAttribute('data-differs')).toBe(true);
  });

  it('says the same in English, plural', () => {
    const row = line({
      payoutBreakdown: {
        ...breakdown,
        refunds: { count: 2, netCents: -7_000 },
        disputes: { count: 1, netCents: -1_500 },
        settlementsWithoutInvoice: 2,
      },
    });
    mount(
      <>
        <ProviderCell row={row} />
        <InvoicingCell row={row} />
      </>,
      'en-GB',
    );
    expect(text('provider-fees')).toBe('fees €6.40');
    expect(text('provider-refunds')).toBe('2 refunds -€70.00');
    expect(text('provider-disputes')).toBe('1 dispute -€15.00');
    expect(text('invoicing-missing')).toBe('2 without invoice');
  });

  it('marks nothing when every settlement is invoiced and nothing was deducted', () => {
    const row = line({
      payoutBreakdown: {
        ...breakdown,
        feeCents: 0,
        refunds: { count: 0, netCents: 0 },
        settlementsWithoutInvoice: 0,
      },
    });
    mount(
      <>
        <ProviderCell row={row} />
        <InvoicingCell row={row} />
      </>,
    );
    expect(screen.queryByTestId('provider-fees')).toBeNull();
    expect(screen.queryByTestId('provider-refunds')).toBeNull();
    expect(screen.queryByTestId('invoicing-missing')).toBeNull();
    expect(text('invoicing')).toBe('170,00 €');
  });

  it('keeps the seeded display for a line whose payout has no rows', () => {
    const row = line({ payoutBreakdown: null, provider: { amountCents: 19_000, date: '2026-01-14' } });
    mount(
      <>
        <ProviderCell row={row} />
        <InvoicingCell row={row} />
      </>,
    );
    expect(text('provider')).toBe('190,00 € · 14/01/2026');
    expect(screen.getByTestId('provider').hasAttribute('data-differs')).toBe(true);
    expect(screen.queryByTestId('provider-fees')).toBeNull();
    expect(screen.queryByTestId('invoicing')).toBeNull();
    expect(screen.queryByTestId('invoicing-missing')).toBeNull();
  });
});

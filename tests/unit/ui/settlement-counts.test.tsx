// @vitest-environment jsdom

import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ProfessionalSettlement, SettlementItem } from '../../../src/api/finance';
import { enGB } from '../../support/messages';
import { adminProfile, clearCookies, fakeApi } from './fake-api';
import { fillJsdomGaps, layOutTables } from './jsdom-gaps';
import { renderApp } from './render-app';

/**
 * Issue 29 point 7: the list the home card "Settlements to process" opens sums the same unit the card
 * counts (settlements: a subscription's has no case), and a doctor's row counts what their month lists.
 * The dashboard's number against the list's total is checked over HTTP in tests/api/dashboard.test.ts.
 */

beforeAll(fillJsdomGaps);
layOutTables();
afterEach(() => {
  cleanup();
  clearCookies();
  vi.unstubAllGlobals();
});

const DOCTOR = 'd0c70000-0000-4000-8000-000000000001';
const MONTH = '2026-10';
const amounts = { grossCents: 4000, feeCents: 1000, netCents: 3000, payableCents: 3000 };
const doctorMonth: ProfessionalSettlement = {
  professionalId: DOCTOR,
  professionalName: 'Carolina',
  fullName: 'Carolina Monteiro Pereira',
  referenceMonth: MONTH,
  settlementCount: 2,
  caseCount: 1,
  ...amounts,
  currency: 'EUR',
  missingFields: [],
};
const settlement = (n: number, patch: Partial<SettlementItem>): SettlementItem => ({
  id: `5e771e00-0000-4000-8000-00000000000${n}`,
  professionalId: DOCTOR,
  professionalName: 'Carolina',
  caseId: null,
  subscriptionPaymentId: null,
  referenceMonth: MONTH,
  grossCents: 2000,
  feeCents: 500,
  netCents: 1500,
  adjustedCents: null,
  adjustmentNote: null,
  payableCents: 1500,
  paymentDate: '2026-10-03',
  availableOn: '2026-10-10',
  hasInvoice: false,
  notes: null,
  status: 'READY_TO_SETTLE',
  createdAt: '2026-10-03T10:00:00.000Z',
  updatedAt: '2026-10-03T10:00:00.000Z',
  currency: 'EUR',
  ...patch,
});
const month = [
  settlement(1, { caseId: 'c0000000-0000-4000-8000-000000000001' }),
  settlement(2, { subscriptionPaymentId: '5b000000-0000-4000-8000-000000000002' }),
];

function serve() {
  fakeApi({
    'GET /v2/user/me': () => ({ status: 200, body: adminProfile }),
    'GET /v2/admin/settlement/professional': () => ({
      status: 200,
      body: {
        items: [doctorMonth],
        nextCursor: null,
        total: 1,
        // Over every doctor: 96 settlements, of which 66 are cases (the rest subscriptions).
        totals: { settlementCount: 96, caseCount: 66, ...amounts, currency: 'EUR' },
      },
    }),
    'GET /v2/admin/settlement/': () => ({ status: 200, body: { items: month, nextCursor: null, total: 2 } }),
  });
}

describe('settlement counts agree', () => {
  it('"Cases to process" sums settlements, the home card’s unit, and each doctor’s row counts them', async () => {
    serve();
    renderApp('/settlement?tab=process', { token: 't' });
    const totals = await screen.findByTestId('settlement-process-totals');
    expect(totals.textContent).toMatch(/^All doctors: 96 settlements — /);
    const table = screen.getByRole('table', { name: enGB.finance.tabs.process });
    const headers = [...table.querySelectorAll('[role="columnheader"], th')].map((th) => th.textContent);
    expect(headers).toContain(enGB.finance.columns.settlements);
    await waitFor(() => expect(table.textContent).toContain('Carolina Monteiro Pereira'));
    const row = [...table.querySelectorAll('[role="row"], tr')].find((r) =>
      r.textContent?.includes('Carolina Monteiro Pereira'),
    ) as HTMLElement;
    const cells = [...row.querySelectorAll('[role="cell"], [role="gridcell"], td')].map((c) => c.textContent);
    const column = headers.indexOf(enGB.finance.columns.settlements);
    expect(cells[column]).toBe('2');
  });

  it('a doctor’s month says "2 of 2 settlements" and names the subscription’s line', async () => {
    serve();
    renderApp(`/settlement?tab=process&doctor=${DOCTOR}&month=${MONTH}`, { token: 't' });
    const summary = await screen.findByTestId('settle-summary');
    expect(summary.textContent).toMatch(/^2 of 2 settlements included/);
    const caseCells = month.map(
      (item) => screen.getByTestId(`review-row-${item.id}`).querySelectorAll('td')[1]?.textContent,
    );
    expect(caseCells).toEqual(['c0000000', enGB.finance.process.subscription]);
  });
});

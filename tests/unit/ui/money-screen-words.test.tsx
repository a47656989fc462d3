// @vitest-environment jsdom

import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ExportJob } from '../../../src/api/exports';
import type { SepaDoctorToProcess, SepaDryRun, SepaFileDetail } from '../../../src/api/sepa';
import type { UserSummary } from '../../../src/api/users';
import { rita } from '../../fixtures/users';
import { enGB, ptPT } from '../../support/messages';
import { adminProfile, clearCookies, fakeApi } from './fake-api';
import { fillJsdomGaps, layOutTables } from './jsdom-gaps';
import { renderApp } from './render-app';

/**
 * Issue 29 point 9: the money screens as an operator reads them, in both languages, with one of
 * everything (one transfer, one settlement, one doctor): no ISO date (2026-11-30) and no count of one
 * with a plural noun ("1 transferências", "1 cases"); and any list (its total, its selection, a bulk
 * action's confirmation) and the home cards with one of each ("1 registos", "1 selecionados").
 */

// The home's charts draw on a canvas jsdom does not have; their words are chart-summaries.test.ts's.
vi.mock('../../../src/features/home/TrendCharts', () => ({ default: () => null }));

beforeAll(fillJsdomGaps);
layOutTables();
afterEach(() => {
  cleanup();
  clearCookies();
  vi.unstubAllGlobals();
});

const ISO_DAY = /\b\d{4}-\d{2}-\d{2}\b/;
// A count and its word may sit in two elements ("1" above "Transferências…" on a home card): no space needed.
const ONE_WITH_PLURAL =
  /\b1\s*(casos|liquidações|transferências|faturas|médicos|linhas|ficheiros|exportações|registos|selecionad[oa]s|cases|settlements|transfers|payouts|invoices|doctors|lines|files|exports|records|rows)\b/i;

const FILE_ID = '5e9a0000-0000-4000-8000-000000000001';
const DOCTOR = 'd0c70000-0000-4000-8000-000000000001';
const file: SepaFileDetail = {
  id: FILE_ID,
  msgId: 'SEPA-2026-11-000001',
  paymentInfoId: 'PMT-2026-11-000001',
  status: 'GENERATED',
  referenceMonth: '2026-11',
  executionDate: '2026-11-30',
  amountCents: 4530,
  transferCount: 1,
  rejectedTransferCount: 0,
  settlementCount: 1,
  currency: 'EUR',
  notes: null,
  createdAt: '2026-11-27T10:00:00.000Z',
  updatedAt: '2026-11-27T10:00:00.000Z',
  createdBy: { id: 'a0000000-0000-4000-8000-000000000001', name: 'admin' },
  downloadable: true,
  debtorName: 'Clínica Exemplo',
  debtorIban: 'PT50000201231234567890154',
  debtorBic: null,
  transfers: [
    {
      id: '7a000000-0000-4000-8000-000000000001',
      endToEndId: 'E2E-1',
      professionalId: DOCTOR,
      professionalName: 'Carolina Monteiro',
      creditorName: 'Carolina Monteiro Pereira',
      creditorIban: 'PT50000201231234567890154',
      creditorBic: null,
      amountCents: 4530,
      settledCents: 4530,
      recoveredCents: 0,
      status: 'ACCEPTED',
      rejection: null,
      settlements: [
        {
          id: '5e771e00-0000-4000-8000-000000000001',
          caseId: 'c0000000-0000-4000-8000-000000000001',
          subscriptionPaymentId: null,
          referenceMonth: '2026-11',
          amountCents: 4530,
          status: 'PENDING_TRANSFER',
        },
      ],
      recoveries: [],
    },
  ],
  statusReports: [],
  statementLines: [],
} as unknown as SepaFileDetail;

const doctor: SepaDoctorToProcess = {
  professionalId: DOCTOR,
  professionalName: 'Carolina Monteiro',
  fullName: 'Carolina Monteiro Pereira',
  referenceMonth: '2026-11',
  settlementCount: 1,
  owedCents: 4530,
  recoveryCents: 0,
  transferCents: 4530,
  currency: 'EUR',
  selectable: true,
  excludedBecause: null,
  missingFields: [],
  payoutBlock: null,
} as unknown as SepaDoctorToProcess;

/** Owes back exactly what they are owed: nothing to transfer. */
const evenDoctor = {
  ...doctor,
  professionalId: 'd0c70000-0000-4000-8000-000000000002',
  professionalName: 'Rui Santos',
  fullName: 'Rui Santos Almeida',
  recoveryCents: 4530,
  transferCents: 0,
  selectable: false,
  excludedBecause: 'RECOVERY_NOT_COVERED',
} as SepaDoctorToProcess;

const dryRun: SepaDryRun = {
  referenceMonth: '2026-11',
  executionDate: '2026-11-30',
  transferCount: 1,
  settlementCount: 1,
  settledCents: 4530,
  recoveredCents: 0,
  totalCents: 4530,
  currency: 'EUR',
  excluded: [
    {
      professionalId: evenDoctor.professionalId,
      professionalName: evenDoctor.professionalName,
      fullName: evenDoctor.fullName,
      reason: 'RECOVERY_NOT_COVERED',
      missingFields: [],
      payoutBlock: null,
      owedCents: 4530,
      recoveryCents: 4530,
    },
  ],
};

const job: ExportJob = {
  id: 'e0000000-0000-4000-8000-000000000001',
  type: 'USERS',
  format: 'CSV',
  locale: 'pt-PT',
  filters: { dateField: 'CREATED', startDate: '2026-11-01', endDate: '2026-11-30' },
  status: 'done',
  rowsWritten: 1,
  estimatedTotal: 1,
  totalEstimated: false,
  fileName: 'users.csv',
  sizeBytes: 100,
  errorReason: null,
  createdAt: '2026-11-27T10:00:00.000Z',
  startedAt: '2026-11-27T10:00:00.000Z',
  finishedAt: '2026-11-27T10:00:01.000Z',
  expiresAt: '2026-12-04T10:00:00.000Z',
} as unknown as ExportJob;

function serve() {
  fakeApi({
    'GET /v2/user/me': () => ({ status: 200, body: adminProfile }),
    [`GET /v2/admin/settlement/sepa/${FILE_ID}`]: () => ({ status: 200, body: file }),
    'GET /v2/admin/settlement/sepa/': () => ({
      status: 200,
      body: { items: [file], nextCursor: null, total: 1 },
    }),
    'GET /v2/admin/settlement/sepa/to-process': () => ({
      status: 200,
      body: {
        referenceMonth: '2026-11',
        // The excluded doctor is on a page not loaded yet: the dry run still names them in full.
        items: [doctor],
        nextCursor: 'next',
        total: 2,
        totals: { doctorCount: 2, settlementCount: 2, owedCents: 9060, currency: 'EUR' },
        months: [{ referenceMonth: '2026-11', doctorCount: 2, settlementCount: 2 }],
      },
    }),
    'POST /v2/admin/settlement/sepa/dry-run': () => ({ status: 200, body: dryRun }),
    'GET /v2/admin/exports': () => ({ status: 200, body: { items: [job], nextCursor: null, total: 1 } }),
  });
}

/** The page's visible text, once `ready` is shown. */
async function textOf(ready: () => HTMLElement | Promise<HTMLElement>) {
  await waitFor(ready);
  return document.body.textContent ?? '';
}

const LOCALES = [
  ['pt-PT', ptPT],
  ['en-GB', enGB],
] as const;

describe.each(LOCALES)('the money screens’ words in %s', (locale, messages) => {
  const expectReadable = (text: string) => {
    expect(text).not.toMatch(ISO_DAY);
    expect(text).not.toMatch(ONE_WITH_PLURAL);
  };

  it('a SEPA file’s page', async () => {
    serve();
    renderApp(`/sepa/${FILE_ID}`, { token: 't', locale });
    const text = await textOf(() => screen.getByText('E2E-1'));
    expect(text).toContain('30/11/2026');
    expectReadable(text);
  });

  it('the SEPA history', async () => {
    serve();
    renderApp('/sepa?tab=history', { token: 't', locale });
    expectReadable(await textOf(() => screen.getByText(file.msgId)));
  });

  it('the dry run of one transfer, naming the doctor as the list does (full name first), loaded or not', async () => {
    serve();
    const user = userEvent.setup();
    renderApp('/sepa?tab=process&month=2026-11', { token: 't', locale });
    await user.click(await screen.findByRole('button', { name: messages.sepa.process.all }));
    const summary = await screen.findByTestId('sepa-dry-run-summary');
    expect(summary.textContent).toContain('30/11/2026');
    const dialog = summary.closest('[aria-modal="true"]') as HTMLElement;
    // The full name the list shows, and a recovery equal to the amount owed not said to exceed it.
    expect(dialog.textContent).toContain(
      `Rui Santos Almeida: ${messages.sepa.exclusion.RECOVERY_NOT_COVERED}`,
    );
    expect(messages.sepa.exclusion.RECOVERY_NOT_COVERED).not.toMatch(/excede|exceeds/);
    expectReadable(document.body.textContent ?? '');
  });

  it('an export’s date range', async () => {
    serve();
    renderApp('/export/users', { token: 't', locale });
    const text = await textOf(() => screen.getByText(/01\/11\/2026/));
    expect(text).toContain('30/11/2026');
    expectReadable(text);
  });

  // Decision 0143: the lists the blocked doctors' and the failed exports' home cards open.
  it('the blocked payouts: one doctor, why, the IBAN refused, what blocked it and when', async () => {
    fakeApi({
      'GET /v2/user/me': () => ({ status: 200, body: adminProfile }),
      'GET /v2/admin/professionals/payout-blocked': () => ({
        status: 200,
        body: {
          items: [
            {
              professionalId: DOCTOR,
              name: 'Rui Santos',
              email: 'rui@example.pt',
              blockedBy: 'RETURN',
              block: {
                id: 'b1000000-0000-4000-8000-000000000001',
                reasonCode: 'AC04',
                reasonText: null,
                blockedIban: 'PT50000201231234567890154',
                sepaFileId: FILE_ID,
                msgId: file.msgId,
                endToEndId: 'E2E-1',
                blockedAt: '2026-11-27T10:00:00.000Z',
              },
            },
          ],
          nextCursor: null,
          total: 1,
        },
      }),
    });
    renderApp('/sepa?tab=blocked', { token: 't', locale });
    const total = await screen.findByTestId('sepa-blocked-total');
    await waitFor(() => expect(total.textContent).toBe(messages.table.total.one.replace('{{count}}', '1')));
    const text = await textOf(() => screen.getByText('Rui Santos'));
    for (const words of [
      `AC04 — ${messages.bankReasons.AC04}`,
      messages.sepa.blocked.by.RETURN,
      '27/11/2026',
    ])
      expect(text).toContain(words);
    expectReadable(text);
  });

  it('your failed exports, of every type, asked for with status=failed', async () => {
    const failed = { ...job, status: 'failed', errorReason: 'INSTANCE_STOPPED', fileName: null };
    const asked: string[] = [];
    fakeApi({
      'GET /v2/user/me': () => ({ status: 200, body: adminProfile }),
      'GET /v2/admin/exports': ({ url }) => {
        asked.push(url);
        return {
          status: 200,
          body: { items: [failed, { ...failed, id: DOCTOR, type: 'STATS' }], nextCursor: null, total: 2 },
        };
      },
    });
    renderApp('/export/failed', { token: 't', locale });
    const total = await screen.findByTestId('exports-failed-total');
    await waitFor(() => expect(total.textContent).toBe(messages.table.total.other.replace('{{count}}', '2')));
    expect(asked.every((url) => new URL(url, 'http://x').searchParams.get('status') === 'failed')).toBe(true);
    expect(asked.some((url) => new URL(url, 'http://x').searchParams.has('type'))).toBe(false);
    const text = await textOf(() => screen.getByText(new RegExp(messages.exports.types.STATS)));
    expect(text).toContain(messages.exports.failure.INSTANCE_STOPPED);
    expectReadable(text);
  });

  it('a list of one record, one of it selected, and the bulk confirmation', async () => {
    const only: UserSummary = { ...rita, id: '00000000-0000-4000-8000-000000000001', role: 'CUSTOMER' };
    fakeApi({
      'GET /v2/user/me': () => ({ status: 200, body: adminProfile }),
      'GET /v2/admin/users': () => ({ status: 200, body: { items: [only], nextCursor: null, total: 1 } }),
      'GET /v2/static-data/country': () => ({ status: 200, body: [] }),
    });
    const user = userEvent.setup();
    renderApp('/customers', { token: 't', locale });
    const total = await screen.findByTestId('customers-total');
    await waitFor(() => expect(total.textContent).toBe(messages.table.total.one.replace('{{count}}', '1')));
    await user.keyboard('jx');
    await screen.findByText(messages.table.selected.one.replace('{{count}}', '1'));
    expectReadable(document.body.textContent ?? '');
    const disable = `${messages.users.actions.disable} (1)…`;
    await user.click(screen.getByRole('button', { name: disable }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog.textContent).toContain(
      messages.bulk.title.one.replace('{{action}}', messages.users.actions.disable).replace('{{count}}', '1'),
    );
    expectReadable(dialog.textContent ?? '');
  });

  it('the month close with one of each, matched and left, and what matched means (decision 0155)', async () => {
    const one = { count: 1, amountCents: 4530 };
    const sources = ['BANK_LINES', 'PAYOUTS', 'INVOICES', 'SETTLEMENTS', 'SEPA_FILES'] as const;
    fakeApi({
      'GET /v2/user/me': () => ({ status: 200, body: adminProfile }),
      'GET /v2/admin/finance/month-close': () => ({
        status: 200,
        body: { month: '2026-11', rows: sources.map((source) => ({ source, matched: one, unmatched: one })) },
      }),
    });
    renderApp('/month-close?month=2026-11', { token: 't', locale });
    const table = await screen.findByTestId('month-close');
    for (const source of sources) {
      expect(table.textContent).toContain(messages.monthClose.source[source]);
      expect(table.textContent).toContain(messages.monthClose.means[source]);
      expect(table.textContent).toContain(messages.monthClose.count[source].one.replace('{{count}}', '1'));
    }
    expectReadable(document.body.textContent ?? '');
  });

  it('the provider documents: one payout and one invoice, matched or not', async () => {
    fakeApi({
      'GET /v2/user/me': () => ({ status: 200, body: adminProfile }),
      'GET /v2/admin/finance/provider-documents': () => ({
        status: 200,
        body: {
          items: [
            {
              id: '1a000000-0000-4000-8000-000000000001',
              kind: 'INVOICE',
              label: 'FR 2026/17',
              amountCents: 4530,
              date: '2026-11-20',
              matched: false,
              settlementId: null,
              statementLineId: null,
            },
          ],
          nextCursor: null,
          total: 1,
        },
      }),
    });
    renderApp('/provider-documents?kind=INVOICE&matched=false', { token: 't', locale });
    const text = await textOf(() => screen.getByText('FR 2026/17'));
    expect(text).toContain('20/11/2026');
    expect(text).toContain(messages.providerDocuments.state.INVOICE.unmatched);
    expectReadable(text);
  });

  it('the home cards with one of each', async () => {
    const one = { count: 1, amountCents: 4530 };
    const axis = { days: [], byStatus: [] };
    fakeApi({
      'GET /v2/user/me': () => ({ status: 200, body: adminProfile }),
      'GET /v2/admin/dashboard': () => ({
        status: 200,
        body: {
          asOf: '2026-11-27T10:00:00.000Z',
          today: '2026-11-27',
          currency: 'EUR',
          attention: {
            professionalsToVerify: 1,
            professionalsDisabled: 1,
            casesWaitingPayment: 1,
            settlementsToProcess: one,
            sepaFilesAwaitingBank: one,
            returnsToMatch: one,
            doctorsPayoutsBlocked: 1,
            statementLinesUnmatched: one,
            settlementsNotInvoiced: one,
            invoicesWithoutPaidSettlement: one,
            exportsFailed: 1,
            statementAutomation: { month: '2026-11', imported: 1, automated: 1 },
          },
          trends: {
            casesPerDay: axis,
            revenuePerMonth: { months: [], feeCents: [], netCents: [] },
            payoutsPerMonth: { months: [], amountCents: [], transfers: [] },
            signupsPerWeek: { weeks: [], customers: [], professionals: [] },
          },
        },
      }),
    });
    renderApp('/', { token: 't', locale });
    const cards = await screen.findByRole('region', { name: messages.home.attention });
    await waitFor(() => expect(cards.textContent).toContain(messages.home.returnsToMatch.one));
    for (const card of Object.values(messages.home).filter((v) => typeof v === 'object' && 'one' in v))
      expect(cards.textContent).toContain((card as { one: string }).one);
    // The automation rate of one line imported, automated (decision 0147).
    expect(cards.textContent).toContain(
      messages.home.automationDetail.rate.one
        .replace('{{rate}}', new Intl.NumberFormat(locale, { style: 'percent' }).format(1))
        .replace('{{imported}}', '1'),
    );
    expectReadable(cards.textContent ?? '');
  });
});

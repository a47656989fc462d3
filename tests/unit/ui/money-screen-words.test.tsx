// @vitest-environment jsdom

import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ExportJob } from '../../../src/api/exports';
import type { SepaDoctorToProcess, SepaDryRun, SepaFileDetail } from '../../../src/api/sepa';
import { enGB, ptPT } from '../../support/messages';
import { adminProfile, clearCookies, fakeApi } from './fake-api';
import { fillJsdomGaps, layOutTables } from './jsdom-gaps';
import { renderApp } from './render-app';

/**
 * Issue 29 point 9: the money screens as an operator reads them, in both languages, with one of
 * everything (one transfer, one settlement, one doctor): no ISO date (2026-11-30) and no count of one
 * with a plural noun ("1 transferências", "1 cases").
 */

beforeAll(fillJsdomGaps);
layOutTables();
afterEach(() => {
  cleanup();
  clearCookies();
  vi.unstubAllGlobals();
});

const ISO_DAY = /\b\d{4}-\d{2}-\d{2}\b/;
const ONE_WITH_PLURAL =
  /\b1\s(casos|liquidações|transferências|médicos|linhas|selecionadas|cases|settlements|transfers|doctors|lines)\b/;

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
        items: [doctor, evenDoctor],
        totals: {
          doctorCount: 1,
          selectableCount: 1,
          settlementCount: 1,
          owedCents: 4530,
          recoveryCents: 0,
          transferCents: 4530,
          currency: 'EUR',
        },
        months: [{ referenceMonth: '2026-11', doctorCount: 1, settlementCount: 1 }],
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

  it('the dry run of one transfer, naming the doctor as the list does', async () => {
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
});

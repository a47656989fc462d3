// @vitest-environment jsdom

import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SepaDoctorToProcess, SepaDryRun, SepaToProcess } from '../../../src/api/sepa';
import { formatMoney } from '../../../src/features/finance/format';
import { enGB, ptPT } from '../../support/messages';
import { adminProfile, clearCookies, type FakeCall, fakeApi } from './fake-api';
import { fillJsdomGaps, layOutTables } from './jsdom-gaps';
import { renderApp } from './render-app';

/**
 * "SEPA to process" a page at a time (decision 0145): the screen reads the month's doctors page by
 * page in its table, shows the month's totals from the first page, and "all" is the server's selection.
 */

beforeAll(fillJsdomGaps);
layOutTables();
afterEach(() => {
  cleanup();
  clearCookies();
  vi.unstubAllGlobals();
});

const MONTH = '2026-10';
const doctorOf = (n: number): SepaDoctorToProcess => ({
  professionalId: `d0c70000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  professionalName: `doctor${n}`,
  fullName: `Doctor ${String(n).padStart(2, '0')} Full`,
  referenceMonth: MONTH,
  settlementCount: 1,
  owedCents: 1000,
  recoveryCents: 0,
  transferCents: 1000,
  currency: 'EUR',
  selectable: true,
  excludedBecause: null,
  missingFields: [],
  payoutBlock: null,
});
const TOTALS = {
  doctorCount: 10_000,
  settlementCount: 100_000,
  owedCents: 123_456_789,
  currency: 'EUR' as const,
};
const pageOf = (items: SepaDoctorToProcess[], nextCursor: string | null): SepaToProcess => ({
  referenceMonth: MONTH,
  items,
  nextCursor,
  total: TOTALS.doctorCount,
  totals: TOTALS,
  months: [
    { referenceMonth: MONTH, doctorCount: TOTALS.doctorCount, settlementCount: TOTALS.settlementCount },
  ],
});
const FIRST = Array.from({ length: 50 }, (_, i) => doctorOf(i));
const SECOND = [50, 51, 52].map(doctorOf);
const dryRun: SepaDryRun = {
  referenceMonth: MONTH,
  executionDate: '2026-11-30',
  transferCount: 2,
  settlementCount: 2,
  settledCents: 2000,
  recoveredCents: 0,
  totalCents: 2000,
  currency: 'EUR',
  excluded: [],
};

function serve() {
  return fakeApi({
    'GET /v2/user/me': () => ({ status: 200, body: adminProfile }),
    'GET /v2/admin/settlement/sepa/to-process': (call) => {
      const cursor = new URL(call.url, 'http://console').searchParams.get('cursor');
      return { status: 200, body: cursor === 'page-2' ? pageOf(SECOND, null) : pageOf(FIRST, 'page-2') };
    },
    'POST /v2/admin/settlement/sepa/dry-run': () => ({ status: 200, body: dryRun }),
  });
}

const toProcessCalls = (calls: FakeCall[]) =>
  calls
    .filter((call) => call.url.includes('/sepa/to-process'))
    .map((call) => Object.fromEntries(new URL(call.url, 'http://console').searchParams));
const dryRunBodies = (calls: FakeCall[]) =>
  calls.filter((call) => call.url.includes('/sepa/dry-run')).map((call) => call.body);

describe.each([
  ['pt-PT', ptPT],
  ['en-GB', enGB],
] as const)('SEPA to process, page by page, in %s', (locale, messages) => {
  it('reads the doctors page by page (one request for the first: header and table), shows the month’s totals, and "all" names no doctor', async () => {
    const { calls } = serve();
    const user = userEvent.setup();
    renderApp(`/sepa?tab=process&month=${MONTH}`, { token: 't', locale });
    await screen.findByText('Doctor 00 Full');
    // The second page is asked as the table nears the end of the first (the first 30 rows shown).
    await waitFor(() =>
      expect(toProcessCalls(calls)).toEqual([
        { referenceMonth: MONTH, limit: '50' },
        { referenceMonth: MONTH, limit: '50', cursor: 'page-2' },
      ]),
    );
    expect(screen.getByTestId('sepa-totals').textContent).toContain(
      messages.sepa.process.totals_other
        .replace('{{doctors}}', new Intl.NumberFormat(locale).format(TOTALS.doctorCount))
        .replace('{{amount}}', formatMoney(TOTALS.owedCents, locale)),
    );

    await user.click(screen.getByRole('button', { name: messages.sepa.process.all }));
    await screen.findByTestId('sepa-dry-run-summary');
    expect(dryRunBodies(calls)).toEqual([{ referenceMonth: MONTH }]);
  });

  it('a selection of loaded rows asks the dry run for those doctors only', async () => {
    const { calls } = serve();
    const user = userEvent.setup();
    renderApp(`/sepa?tab=process&month=${MONTH}`, { token: 't', locale });
    await screen.findByText('Doctor 00 Full');
    await user.keyboard('jxjx');
    await user.click(await screen.findByTestId('sepa-dry-run'));
    await screen.findByTestId('sepa-dry-run-summary');
    await waitFor(() =>
      expect(dryRunBodies(calls)).toEqual([
        { referenceMonth: MONTH, professionalIds: [FIRST[0]!.professionalId, FIRST[1]!.professionalId] },
      ]),
    );
  });
});

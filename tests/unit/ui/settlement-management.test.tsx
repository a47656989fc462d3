// @vitest-environment jsdom

import { QueryClient } from '@tanstack/react-query';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { dashboardQuery } from '../../../src/api/dashboard';
import { type SettlementItem, settlementKeys } from '../../../src/api/finance';
import { sepaKeys } from '../../../src/api/sepa';
import { refreshSettlements } from '../../../src/features/finance/settlement-actions';
import { enGB } from '../../support/messages';
import { adminProfile, clearCookies, type FakeCall, fakeApi } from './fake-api';
import { fillJsdomGaps, layOutTables } from './jsdom-gaps';
import { renderApp } from './render-app';

beforeAll(fillJsdomGaps);
layOutTables();
afterEach(() => {
  cleanup();
  clearCookies();
  vi.unstubAllGlobals();
});

const text = enGB.settlementAdmin;
const fill = (template: string, values: Record<string, string | number>) =>
  template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name]));

const settlement = (n: number, patch: Partial<SettlementItem> = {}): SettlementItem => ({
  id: `5e771e00-0000-4000-8000-00000000000${n}`,
  professionalId: 'p0000000-0000-4000-8000-000000000001',
  professionalName: `Doctor ${n}`,
  caseId: `c0000000-0000-4000-8000-00000000000${n}`,
  subscriptionPaymentId: null,
  referenceMonth: '2026-10',
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

/** A settlements API over a list the mutations change, as the server would. */
function serve(
  initial: SettlementItem[],
  routes: Record<string, (call: FakeCall) => { status: number; body?: unknown }> = {},
) {
  let rows = [...initial];
  const api = fakeApi({
    'GET /v2/user/me': () => ({ status: 200, body: adminProfile }),
    'GET /v2/admin/settlement/': () => ({
      status: 200,
      body: { items: rows, nextCursor: null, total: rows.length },
    }),
    ...Object.fromEntries(
      initial.map((row) => [
        `DELETE /v2/admin/settlement/${row.id}`,
        () => {
          rows = rows.filter((r) => r.id !== row.id);
          return { status: 204 };
        },
      ]),
    ),
    'POST /v2/admin/settlement/bulk-delete': (call) => {
      const ids = (call.body as { settlementIds: string[] }).settlementIds;
      const deletable = (id: string) => rows.find((r) => r.id === id)?.status !== 'PENDING_TRANSFER';
      const deleted = ids.filter(deletable);
      rows = rows.filter((r) => !deleted.includes(r.id));
      return {
        status: 200,
        body: {
          deleted,
          refused: ids
            .filter((id) => !deletable(id))
            .map((settlementId) => ({ settlementId, code: 'SETTLEMENT_NOT_DELETABLE' })),
        },
      };
    },
    ...routes,
  });
  return api;
}

const table = () => screen.findByRole('table', { name: text.tabs.manage });
const rowOf = async (name: string) => {
  const cell = await within(await table()).findByText(name);
  return cell.closest('tr') as HTMLElement;
};
const mutations = (calls: FakeCall[]) =>
  calls.filter((c) => c.method !== 'GET').map((c) => `${c.method} ${c.url.split('?')[0]}`);

describe('settlement management', () => {
  it('deletes one settlement through the confirmation; it leaves the table', async () => {
    const user = userEvent.setup();
    const one = settlement(1);
    const { calls } = serve([one, settlement(2, { status: 'PAID' })]);
    renderApp('/settlement?tab=manage', { token: 'tok' });
    await user.click(within(await rowOf('Doctor 1')).getByRole('button', { name: text.manage }));
    const editor = screen.getByTestId('settlement-editor');
    await user.click(within(editor).getByRole('button', { name: text.delete }));
    const dialog = await screen.findByRole('alertdialog', { name: text.deleteTitle });
    expect(dialog.textContent).toContain(
      fill(text.deleteMessage, { doctor: 'Doctor 1', month: 'October 2026', amount: '€15.00' }),
    );
    await user.keyboard('{Enter}');
    await screen.findByText(fill(text.deleted, { doctor: 'Doctor 1' }));
    await waitFor(() =>
      expect(
        within(screen.getByRole('table', { name: text.tabs.manage })).queryByText('Doctor 1'),
      ).toBeNull(),
    );
    expect(screen.queryByTestId('settlement-editor')).toBeNull();
    expect(mutations(calls)).toEqual([`DELETE /v2/admin/settlement/${one.id}`]);
  });

  it('offers no delete once a settlement is in a SEPA transfer', async () => {
    const user = userEvent.setup();
    serve([settlement(1, { status: 'PENDING_TRANSFER' })]);
    renderApp('/settlement?tab=manage', { token: 'tok' });
    await user.click(within(await rowOf('Doctor 1')).getByRole('button', { name: text.manage }));
    const editor = screen.getByTestId('settlement-editor');
    expect(within(editor).queryByRole('button', { name: text.delete })).toBeNull();
    expect(within(editor).queryByRole('button', { name: text.adjust })).toBeNull();
  });

  it('bulk-deletes the x-selected rows after a confirmation with the count, and shows each row’s outcome', async () => {
    const user = userEvent.setup();
    const rows = [settlement(1), settlement(2, { status: 'PENDING_TRANSFER' }), settlement(3)];
    const { calls } = serve(rows);
    renderApp('/settlement?tab=manage', { token: 'tok' });
    await rowOf('Doctor 1');
    (document.activeElement as HTMLElement | null)?.blur();
    await user.keyboard('jxjx');
    await user.click(await screen.findByRole('button', { name: fill(text.bulkDelete_other, { count: 2 }) }));
    const dialog = await screen.findByRole('alertdialog', {
      name: fill(text.bulkDeleteTitle_other, { count: 2 }),
    });
    expect(dialog.textContent).toContain(fill(text.bulkDeleteMessage_other, { count: 2 }));
    await user.keyboard('{Enter}');
    await screen.findByText(fill(text.bulkDeleted_other, { deleted: 1, count: 2 }));
    expect(calls.find((c) => c.url.endsWith('/bulk-delete'))?.body).toEqual({
      settlementIds: [rows[0]?.id, rows[1]?.id],
    });
    const result = screen.getByTestId('bulk-result');
    expect(within(result).getByTestId(`bulk-${rows[0]?.id}`).textContent).toContain(text.bulkRowDeleted);
    expect(within(result).getByTestId(`bulk-${rows[1]?.id}`).textContent).toContain(
      enGB.errorMessages.SETTLEMENT_NOT_DELETABLE,
    );
    await waitFor(() =>
      expect(
        within(screen.getByRole('table', { name: text.tabs.manage })).queryByText('Doctor 1'),
      ).toBeNull(),
    );
    expect(within(screen.getByRole('table', { name: text.tabs.manage })).getByText('Doctor 2')).toBeTruthy();
    expect(mutations(calls)).toEqual(['POST /v2/admin/settlement/bulk-delete']);
  });

  it('adjusts the amount: a note is required, a refusal shows once in the form, then the change is applied', async () => {
    const user = userEvent.setup();
    const one = settlement(1);
    let refuse = true;
    const { calls } = serve([one], {
      [`PATCH /v2/admin/settlement/${one.id}`]: (call) => {
        if (refuse) {
          refuse = false;
          return { status: 422, body: { code: 'ADJUSTMENT_ABOVE_GROSS', message: 'above gross' } };
        }
        const body = call.body as { adjustedCents: number; adjustmentNote: string };
        return {
          status: 200,
          body: {
            ...one,
            adjustedCents: body.adjustedCents,
            adjustmentNote: body.adjustmentNote,
            payableCents: body.adjustedCents,
          },
        };
      },
    });
    renderApp('/settlement?tab=manage', { token: 'tok' });
    await user.click(within(await rowOf('Doctor 1')).getByRole('button', { name: text.manage }));
    await user.click(screen.getByRole('button', { name: text.adjust }));
    const form = screen.getByRole('form', {
      name: fill(enGB.finance.process.adjustTitle, { case: one.caseId?.slice(0, 8) ?? '' }),
    });
    await user.type(within(form).getByLabelText(enGB.finance.process.amount), '30');
    await user.click(within(form).getByRole('button', { name: enGB.finance.process.saveAdjustment }));
    expect(within(form).getByRole('alert').textContent).toBe(enGB.finance.process.noteRequired);
    expect(mutations(calls)).toEqual([]);

    await user.type(within(form).getByLabelText(enGB.finance.process.note), 'Agreed by phone');
    await user.click(within(form).getByRole('button', { name: enGB.finance.process.saveAdjustment }));
    await within(form).findByText(enGB.errorMessages.ADJUSTMENT_ABOVE_GROSS);
    expect(screen.getAllByText(enGB.errorMessages.ADJUSTMENT_ABOVE_GROSS)).toHaveLength(1);

    await user.clear(within(form).getByLabelText(enGB.finance.process.amount));
    await user.type(within(form).getByLabelText(enGB.finance.process.amount), '12,50');
    await user.click(within(form).getByRole('button', { name: enGB.finance.process.saveAdjustment }));
    await screen.findByText(fill(text.adjusted, { doctor: 'Doctor 1', amount: '€12.50' }));
    expect(calls.filter((c) => c.method === 'PATCH').map((c) => c.body)).toEqual([
      { adjustedCents: 3000, adjustmentNote: 'Agreed by phone' },
      { adjustedCents: 1250, adjustmentNote: 'Agreed by phone' },
    ]);
    expect(
      screen.queryAllByRole('heading', {
        name: fill(text.panelTitle, { doctor: 'Doctor 1', month: 'October 2026', amount: '€12.50' }),
      }),
    ).toHaveLength(1);
  });

  it('uploads the invoice as the file’s raw bytes and saves the notes; the invoice then has a download link', async () => {
    const user = userEvent.setup();
    const one = settlement(1);
    const { calls } = serve([one], {
      [`PUT /v2/admin/settlement/${one.id}/invoice`]: () => ({
        status: 200,
        body: {
          settlementId: one.id,
          fileId: 'f0000000-0000-4000-8000-000000000001',
          fileName: 'fatura.pdf',
          contentType: 'application/pdf',
          sizeBytes: 8,
        },
      }),
      [`PATCH /v2/admin/settlement/${one.id}`]: (call) => ({
        status: 200,
        body: { ...one, notes: (call.body as { notes: string }).notes },
      }),
    });
    renderApp('/settlement?tab=manage', { token: 'tok' });
    await user.click(within(await rowOf('Doctor 1')).getByRole('button', { name: text.manage }));
    const upload = screen.getByRole('form', { name: text.upload });
    await user.click(within(upload).getByRole('button', { name: text.upload }));
    expect(within(upload).getByRole('alert').textContent).toBe(text.chooseFile);
    const file = new File(['%PDF-1.4'], 'fatura.pdf', { type: 'application/pdf' });
    await user.upload(within(upload).getByLabelText(text.invoice), file);
    await user.click(within(upload).getByRole('button', { name: text.upload }));
    await screen.findByText(fill(text.uploaded, { name: 'fatura.pdf' }));
    const put = calls.find((c) => c.method === 'PUT');
    expect(new URL(put?.url ?? '', 'http://x').searchParams.get('fileName')).toBe('fatura.pdf');
    expect(put?.body).toBe(file);
    expect(
      within(screen.getByTestId('settlement-editor'))
        .getByRole('link', { name: text.download })
        .getAttribute('href'),
    ).toBe(`/v2/admin/settlement/${one.id}/invoice/download`);

    const notes = screen.getByRole('form', { name: text.notes });
    await user.type(within(notes).getByLabelText(text.notes), 'Called the clinic');
    await user.click(within(notes).getByRole('button', { name: text.saveNotes }));
    await screen.findByText(text.notesSaved);
    expect(calls.filter((c) => c.method === 'PATCH').map((c) => c.body)).toEqual([
      { notes: 'Called the clinic' },
    ]);
  });
});

describe('settlement management on a wide screen (every column shown)', () => {
  layOutTables(640, 2400);

  it('shows each change in the table without a reload: adjust, notes, refund, delete (issue 29 point 3)', async () => {
    const user = userEvent.setup();
    const open = settlement(1);
    const paid = settlement(2, { status: 'PAID' });
    let rows = [open, paid];
    const change = (id: string, patch: Partial<SettlementItem>) => {
      rows = rows.map((row) => (row.id === id ? { ...row, ...patch } : row));
      return { status: 200, body: rows.find((row) => row.id === id) };
    };
    fakeApi({
      'GET /v2/user/me': () => ({ status: 200, body: adminProfile }),
      'GET /v2/admin/settlement/': () => ({
        status: 200,
        body: { items: rows, nextCursor: null, total: rows.length },
      }),
      [`PATCH /v2/admin/settlement/${open.id}`]: (call) => {
        const body = call.body as { adjustedCents?: number; adjustmentNote?: string; notes?: string };
        return change(
          open.id,
          body.adjustedCents === undefined
            ? { notes: body.notes ?? null }
            : {
                adjustedCents: body.adjustedCents,
                adjustmentNote: body.adjustmentNote ?? null,
                payableCents: body.adjustedCents,
              },
        );
      },
      [`POST /v2/admin/settlement/${paid.id}/refund`]: () => change(paid.id, { status: 'REFUNDED_PAID' }),
      [`DELETE /v2/admin/settlement/${open.id}`]: () => {
        rows = rows.filter((row) => row.id !== open.id);
        return { status: 204 };
      },
    });
    renderApp('/settlement?tab=manage', { token: 'tok' });
    const cellsOf = async (name: string) =>
      [...(await rowOf(name)).querySelectorAll('td')].map((cell) => cell.textContent);

    await user.click(within(await rowOf('Doctor 1')).getByRole('button', { name: text.manage }));
    await user.click(screen.getByRole('button', { name: text.adjust }));
    const form = screen.getByRole('form', {
      name: fill(enGB.finance.process.adjustTitle, { case: open.caseId?.slice(0, 8) ?? '' }),
    });
    await user.type(within(form).getByLabelText(enGB.finance.process.amount), '12,50');
    await user.type(within(form).getByLabelText(enGB.finance.process.note), 'Agreed by phone');
    await user.click(within(form).getByRole('button', { name: enGB.finance.process.saveAdjustment }));
    await waitFor(async () => expect(await cellsOf('Doctor 1')).toContain('€12.50'));

    const notes = screen.getByRole('form', { name: text.notes });
    await user.type(within(notes).getByLabelText(text.notes), 'Called the clinic');
    await user.click(within(notes).getByRole('button', { name: text.saveNotes }));
    await waitFor(async () => expect(await cellsOf('Doctor 1')).toContain('Called the clinic'));

    await user.click(within(await rowOf('Doctor 2')).getByRole('button', { name: text.manage }));
    await user.click(
      within(screen.getByTestId('settlement-editor')).getByRole('button', { name: text.refund }),
    );
    await screen.findByRole('alertdialog');
    await user.keyboard('{Enter}');
    await waitFor(async () => expect(await cellsOf('Doctor 2')).toContain(enGB.finance.status.REFUNDED_PAID));

    await user.click(within(await rowOf('Doctor 1')).getByRole('button', { name: text.manage }));
    await user.click(
      within(screen.getByTestId('settlement-editor')).getByRole('button', { name: text.delete }),
    );
    await screen.findByRole('alertdialog');
    await user.keyboard('{Enter}');
    await waitFor(() =>
      expect(
        within(screen.getByRole('table', { name: text.tabs.manage })).queryByText('Doctor 1'),
      ).toBeNull(),
    );
  });
});

describe('refreshSettlements', () => {
  it('marks every screen that shows settlements stale: their lists and reports, the SEPA screens, the home counters', () => {
    const client = new QueryClient();
    const shown = [
      settlementKeys.toProcess(null),
      settlementKeys.list,
      settlementKeys.report('2026-10'),
      sepaKeys.toProcess('2026-10'),
      sepaKeys.payouts('p1'),
      dashboardQuery.queryKey,
    ];
    for (const queryKey of shown) client.setQueryData(queryKey, {});
    client.setQueryData(['users', 'list'], {});
    refreshSettlements(client);
    for (const queryKey of shown)
      expect(client.getQueryState(queryKey)?.isInvalidated, String(queryKey)).toBe(true);
    expect(client.getQueryState(['users', 'list'])?.isInvalidated).toBe(false);
  });
});

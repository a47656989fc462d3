// @vitest-environment jsdom
import { QueryClient } from '@tanstack/react-query';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import enGB from '../../../locales/en-GB.json';
import type { CaseItem, CaseMessage, MessagePage } from '../../../src/api/cases';
import type { UserDetail, UserPage, UserSummary } from '../../../src/api/users';
import { markStale, updateCachedRows } from '../../../src/kernel/query-cache';
import { rita } from '../../fixtures/users';
import { adminProfile, clearCookies, type FakeCall, fakeApi } from './fake-api';
import { fillJsdomGaps } from './jsdom-gaps';
import { renderApp } from './render-app';

// docs/decisions/0062: an entity action writes the server's answer into the query cache instead of
// invalidating (and so refetching) every cached page.

beforeAll(fillJsdomGaps);
afterEach(() => {
  cleanup();
  clearCookies();
  vi.unstubAllGlobals();
});

const requestsAfter = (calls: FakeCall[], from: number) =>
  calls.slice(from).map((c) => `${c.method} ${c.url.split('?')[0]}`);
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

describe('closing a case', () => {
  const CASE_ID = 'c1a5e000-0000-4000-8000-000000000001';
  const openCase: CaseItem = {
    id: CASE_ID,
    customer: { id: 'c0000000-0000-4000-8000-000000000001', name: 'Ana Sousa' },
    professional: { id: 'p0000000-0000-4000-8000-000000000002', name: 'Rui Lopes' },
    closed: false,
    status: 'PAID',
    totalMessages: 5,
    type: 'SINGLE_CASE',
    startDate: '2026-03-15T10:00:00Z',
    endDate: null,
    priceCents: 1500,
    currency: 'EUR',
    professionalSummary: null,
    createdAt: '2026-03-15T09:00:00Z',
    review: null,
  };
  const closedCase: CaseItem = { ...openCase, closed: true, status: 'CLOSED_BY_ADMIN' };
  const message = (n: number): CaseMessage => ({
    id: `m${n}`,
    type: 'TEXT',
    sender: { id: openCase.customer.id, name: 'Ana Sousa', role: 'CUSTOMER', gender: 'female' },
    createdAt: '2026-03-15T10:30:00Z',
    text: `Message ${n}`,
    callDurationSeconds: null,
    voice: null,
    attachments: [],
  });

  it('sends the close request only: no message page is fetched again, the answer is shown', async () => {
    const user = userEvent.setup();
    let current = openCase;
    const { calls } = fakeApi({
      'GET /v2/user/me': () => ({ status: 200, body: adminProfile }),
      [`GET /v2/admin/case/${CASE_ID}/messages`]: (call) => {
        const second = new URL(call.url, 'http://x').searchParams.get('cursor') === 'page-2';
        const page: MessagePage = second
          ? { items: [message(4), message(5)], nextCursor: null, total: 5, case: current }
          : { items: [message(1), message(2), message(3)], nextCursor: 'page-2', total: 5, case: current };
        return { status: 200, body: page };
      },
      [`POST /v2/admin/cases/${CASE_ID}/close`]: () => {
        current = closedCase;
        return { status: 200, body: closedCase };
      },
    });
    renderApp(`/chat/${CASE_ID}`, { token: 'tok' });
    const header = await screen.findByRole('region', { name: enGB.chat.caseDetails });
    // Both message pages are loaded (the timeline asks for the next one while its end is in view).
    await waitFor(() =>
      expect(calls.filter((c) => c.url.includes('/messages')).map((c) => c.url)).toHaveLength(2),
    );
    await settle();
    const before = calls.length;

    await user.click(within(header).getByRole('button', { name: enGB.cases.close.action }));
    await screen.findByRole('alertdialog', { name: enGB.cases.close.title });
    await user.keyboard('{Enter}');

    await screen.findByText(enGB.cases.close.done.replace('{{status}}', enGB.cases.status.CLOSED_BY_ADMIN));
    expect(within(header).queryAllByText(enGB.cases.status.CLOSED_BY_ADMIN)).toHaveLength(1);
    expect(within(header).queryByRole('button', { name: enGB.cases.close.action })).toBeNull();
    await settle();
    expect(requestsAfter(calls, before)).toEqual([`POST /v2/admin/cases/${CASE_ID}/close`]);
  });
});

describe('disabling a user', () => {
  const summary = rita;
  const ID = summary.id;
  const detail: UserDetail = {
    ...summary,
    birthDate: null,
    idCardNumber: null,
    casePriceCents: 1500,
    caseCurrency: 'EUR',
    subscriptionPriceCents: null,
    subscriptionCurrency: 'EUR',
    currentWorkplaces: [],
    specialities: [],
    referralName: null,
    professionalBackground: null,
    associationLink: null,
    avatar: null,
    collegeCardFrontFile: null,
    collegeCardBackFile: null,
    bank: { iban: null, ibanValid: false, ibanError: null, bicSwift: null },
    missingFields: null,
    shareLink: null,
    adminActions: [],
  };
  const disabled: UserSummary = { ...summary, userDisabled: true, status: 'DISABLED' };

  it('shows the answer on the page before anything is fetched again, and rewrites the cached list row', async () => {
    const user = userEvent.setup();
    let detailCalls = 0;
    let releaseRefetch: () => void = () => {};
    const { calls } = fakeApi({
      'GET /v2/user/me': () => ({ status: 200, body: adminProfile }),
      [`GET /v2/admin/users/${ID}`]: () => {
        detailCalls++;
        if (detailCalls === 1) return { status: 200, body: detail };
        // The page asks again for its audit trail; held back, so what shows meanwhile came from the answer.
        return new Promise((resolve) => {
          releaseRefetch = () => resolve({ status: 200, body: { ...detail, ...disabled } });
        });
      },
      [`POST /v2/admin/users/${ID}/disable`]: () => ({ status: 200, body: disabled }),
    });
    const { queryClient } = renderApp(`/professionals/${ID}`, { token: 'tok' });
    // A doctors list page the admin came from, still cached.
    const listKey = ['users', 'list', 'doctors-page'];
    const otherRow: UserSummary = { ...summary, id: 'someone-else', email: 'other@example.pt' };
    queryClient.setQueryData<UserPage>(listKey, { items: [otherRow, summary], nextCursor: null, total: 2 });

    await screen.findByRole('heading', { name: 'Rita Sousa' });
    await user.click(screen.getByRole('button', { name: enGB.users.actions.disable }));
    await screen.findByRole('alertdialog');
    await user.keyboard('{Enter}');

    await screen.findByRole('button', { name: enGB.users.actions.enable });
    expect(screen.getByTestId('user-status').textContent).toBe(enGB.users.status.DISABLED);
    expect(detailCalls).toBe(2);
    const rows = queryClient.getQueryData<UserPage>(listKey)?.items;
    expect(rows?.map((row) => row.status)).toEqual(['EMAIL_VERIFIED', 'DISABLED']);
    expect(rows?.[0]).toBe(otherRow);
    expect(queryClient.getQueryState(listKey)?.isInvalidated).toBe(true);
    expect(calls.filter((c) => c.method === 'GET' && c.url.split('?')[0] === '/v2/admin/users')).toHaveLength(
      0,
    );
    releaseRefetch();
  });
});

describe('updateCachedRows', () => {
  const row = (id: string, status: string) => ({ id, status });

  it('rewrites the row on every loaded page of infinite lists and in single pages, and nothing else', () => {
    const client = new QueryClient();
    const untouched = { items: [row('b', 'OPEN')], nextCursor: null, total: 1 };
    client.setQueryData(['cases', 'table', 1], {
      pages: [
        { items: [row('a', 'OPEN'), row('b', 'OPEN')], nextCursor: 'x', total: 3 },
        { items: [row('a', 'OPEN')], nextCursor: null, total: 3 },
      ],
      pageParams: [null, 'x'],
    });
    client.setQueryData(['cases', 'list', 'q'], { items: [row('a', 'OPEN')], nextCursor: null, total: 1 });
    client.setQueryData(['cases', 'list', 'other'], untouched);
    client.setQueryData(['users', 'list'], { items: [row('a', 'OPEN')], nextCursor: null, total: 1 });

    updateCachedRows<{ id: string; status: string }>(client, ['cases'], 'a', (r) => ({
      ...r,
      status: 'CLOSED',
    }));

    expect(client.getQueryData(['cases', 'table', 1])).toEqual({
      pages: [
        { items: [row('a', 'CLOSED'), row('b', 'OPEN')], nextCursor: 'x', total: 3 },
        { items: [row('a', 'CLOSED')], nextCursor: null, total: 3 },
      ],
      pageParams: [null, 'x'],
    });
    expect(client.getQueryData(['cases', 'list', 'q'])).toEqual({
      items: [row('a', 'CLOSED')],
      nextCursor: null,
      total: 1,
    });
    expect(client.getQueryData(['cases', 'list', 'other'])).toBe(untouched);
    expect(client.getQueryData(['users', 'list'])).toEqual({
      items: [row('a', 'OPEN')],
      nextCursor: null,
      total: 1,
    });
  });

  it('marks stale without fetching', async () => {
    const client = new QueryClient();
    const queryFn = vi.fn(async () => ({ items: [], nextCursor: null, total: 0 }));
    await client.fetchQuery({ queryKey: ['cases', 'list', 'q'], queryFn, staleTime: 60_000 });
    markStale(client, ['cases', 'list']);
    await settle();
    expect(queryFn).toHaveBeenCalledTimes(1);
    expect(client.getQueryState(['cases', 'list', 'q'])?.isInvalidated).toBe(true);
  });
});

// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { USER_SEARCH_MAX } from '../../../contract/limits';
import {
  type DataColumn,
  type DataFilter,
  DataTable,
  type PageRequest,
} from '../../../src/components/DataTable/DataTable';
import { I18nProvider } from '../../../src/i18n/i18n';
import { fillJsdomGaps, layOutTables } from './jsdom-gaps';

interface Person {
  id: string;
  name: string;
  email: string;
}

const TOTAL = 10_000;
const people = Array.from({ length: TOTAL }, (_, i) => ({
  id: `p${i}`,
  name: `Person ${i}`,
  email: `p${i}@example.com`,
}));

const columns: DataColumn<Person>[] = [
  { id: 'name', header: 'Name', cell: (p) => p.name, sort: 'name', hideable: false },
  { id: 'email', header: 'E-mail', cell: (p) => p.email, sort: 'email' },
];

// jsdom lays nothing out: give the scroll box a height so the virtualiser has a window to fill.
const VIEWPORT = 640;
const ROW = 32;
beforeAll(fillJsdomGaps);
layOutTables(VIEWPORT);
afterEach(() => {
  cleanup();
  localStorage.clear();
});

interface SetupOptions {
  locale?: 'pt-PT' | 'en-GB';
  collapseWhenEmpty?: boolean;
  /** A table that offers no filters (the prop left out). */
  unfiltered?: boolean;
}

function setup(
  path: string,
  data: Person[] = people,
  extraFilters: DataFilter[] = [],
  { locale = 'en-GB', collapseWhenEmpty = false, unfiltered = false }: SetupOptions = {},
) {
  window.history.replaceState(null, '', path);
  const requests: PageRequest[] = [];
  const fetchPage = vi.fn(async (request: PageRequest) => {
    requests.push(request);
    const matching = request.q ? data.filter((p) => p.name.includes(request.q)) : data;
    const start = request.cursor ? Number(request.cursor) : 0;
    const items = matching.slice(start, start + request.limit);
    const next = start + request.limit;
    return { items, nextCursor: next < matching.length ? String(next) : null, total: matching.length };
  });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <I18nProvider initial={locale}>
        <Router>
          <DataTable
            id="people"
            label="People"
            columns={columns}
            queryKey={['people']}
            fetchPage={fetchPage}
            getRowId={(p) => p.id}
            rowHref={(p) => `/people/${p.id}`}
            filters={
              unfiltered
                ? undefined
                : [
                    {
                      key: 'status',
                      label: 'Status',
                      kind: 'select',
                      options: [{ value: 'A', label: 'Alpha' }],
                    },
                    ...extraFilters,
                  ]
            }
            bulkActions={(rows) => <button type="button">Bulk {rows.length}</button>}
            pageSize={200}
            rowHeight={ROW}
            searchMaxLength={USER_SEARCH_MAX}
            collapseWhenEmpty={collapseWhenEmpty}
          />
        </Router>
      </I18nProvider>
    </QueryClientProvider>,
  );
  return { requests };
}

const bodyRows = () => document.querySelectorAll('.data-table-body-row');

describe('DataTable', () => {
  it('never holds more than ~100 row elements while scrolling through 10,000 rows', async () => {
    setup('/people');
    await screen.findByText('Person 0');
    const grid = document.querySelector('.data-table-scroll') as HTMLElement;
    let max = 0;
    let loaded = 0;
    for (let top = 0; top <= 9000 * ROW; top += 150 * ROW) {
      await act(async () => {
        grid.scrollTop = top;
        fireEvent.scroll(grid);
      });
      max = Math.max(max, bodyRows().length);
      loaded = Number(bodyRows()[0]?.getAttribute('aria-rowindex'));
    }
    expect(max).toBeGreaterThan(10);
    expect(max).toBeLessThanOrEqual(100);
    // Scrolling really moved the window far down the list (several pages were loaded on the way).
    expect(loaded).toBeGreaterThan(1000);
    expect(screen.getByTestId('people-total').textContent).toBe('10,000 records');
  });

  it('restores query, filter and sort from the URL and sends them to the fetcher', async () => {
    const { requests } = setup('/people?q=Person%201&status=A&sort=email&order=desc');
    await screen.findByText('Person 1');
    expect(requests[0]).toMatchObject({
      q: 'Person 1',
      filters: { status: ['A'] },
      sort: 'email',
      order: 'desc',
    });
    expect((screen.getByRole('searchbox') as HTMLInputElement).value).toBe('Person 1');
    // The server's limit is met while typing, not refused after (issue 14: "q: too long").
    expect((screen.getByRole('searchbox') as HTMLInputElement).maxLength).toBe(USER_SEARCH_MAX);
    // A filter already in the URL is a chip saying its value.
    expect(screen.queryAllByRole('button', { name: 'Status: Alpha' })).toHaveLength(1);
    expect(screen.getByRole('columnheader', { name: /E-mail/ }).getAttribute('aria-sort')).toBe('descending');
  });

  it('takes several values of one filter and amounts in euros, as repeated keys and cents', async () => {
    const user = userEvent.setup();
    const stages = ['X', 'Y', 'Z'].map((v) => ({ value: v, label: `Stage ${v}` }));
    const { requests } = setup('/people?stage=Z', people, [
      { key: 'stage', label: 'Stage', kind: 'multi', options: stages },
      { key: 'minCents', label: 'From', kind: 'amount' },
    ]);
    await screen.findByText('Person 0');
    expect(requests[0]?.filters).toEqual({ stage: ['Z'] });

    await user.click(screen.getByRole('button', { name: 'Stage: Stage Z' }));
    await user.click(screen.getByRole('checkbox', { name: 'Stage X' }));
    // the options' order, not the clicking order: equal selections give equal URLs
    await waitFor(() => expect(window.location.search).toBe('?stage=X&stage=Z'));
    await waitFor(() => expect(requests.at(-1)?.filters).toEqual({ stage: ['X', 'Z'] }));

    expect(screen.queryAllByRole('button', { name: 'Stage: Stage X, Stage Z' })).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: 'Filter' }));
    await user.click(screen.getByRole('menuitem', { name: 'From' }));
    const amount = screen.getByRole('textbox', { name: 'From' });
    await user.type(amount, '12,5{Enter}');
    await waitFor(() => expect(window.location.search).toBe('?stage=X&stage=Z&minCents=1250'));
    expect((amount as HTMLInputElement).value).toBe('12.50');

    const before = window.location.search;
    await user.clear(amount);
    await user.type(amount, 'doze{Enter}');
    expect(amount.getAttribute('aria-invalid')).toBe('true');
    expect(window.location.search).toBe(before);
  });

  it('searches on Enter, writing the query to the URL and handing the keys to the first row; / then Esc clears it', async () => {
    const user = userEvent.setup();
    setup('/people');
    await screen.findByText('Person 0');
    await user.keyboard('/');
    expect(document.activeElement).toBe(screen.getByRole('searchbox'));
    await user.keyboard('Person 99{Enter}');
    await waitFor(() => expect(window.location.search).toBe('?q=Person+99'));
    await screen.findByText('Person 990');
    // The search box is left; the first row is the active one, j moves on, Esc does not clear the search.
    expect(document.activeElement).not.toBe(screen.getByRole('searchbox'));
    const active = () => document.querySelector('.data-table-body-row[data-active]')?.textContent;
    await waitFor(() => expect(active()).toContain('Person 99'));
    await user.keyboard('j');
    await waitFor(() => expect(active()).toContain('Person 990'));
    await user.keyboard('{Escape}');
    expect(window.location.search).toBe('?q=Person+99');
    await user.keyboard('/{Escape}');
    await waitFor(() => expect(window.location.search).toBe(''));
  });

  it('ArrowDown in the search box sends the search and moves to the first row', async () => {
    const user = userEvent.setup();
    setup('/people');
    await screen.findByText('Person 0');
    await user.keyboard('/Person 7{ArrowDown}');
    await waitFor(() => expect(window.location.search).toBe('?q=Person+7'));
    const active = () => document.querySelector('.data-table-body-row[data-active]')?.textContent;
    await waitFor(() => expect(active()).toContain('Person 7'));
    expect(document.activeElement).not.toBe(screen.getByRole('searchbox'));
  });

  it('walks back and forward through searches with the browser history', async () => {
    const user = userEvent.setup();
    const { requests } = setup('/people');
    await screen.findByText('Person 0');
    await user.keyboard('/Person 7{Enter}');
    await screen.findByText('Person 70');
    await act(async () => window.history.back());
    await waitFor(() => expect((screen.getByRole('searchbox') as HTMLInputElement).value).toBe(''));
    await screen.findByText('Person 0');
    await act(async () => window.history.forward());
    await waitFor(() => expect((screen.getByRole('searchbox') as HTMLInputElement).value).toBe('Person 7'));
    expect(requests.map((r) => r.q)).toContain('Person 7');
  });

  it('sorts from the header, next click reverses', async () => {
    const user = userEvent.setup();
    setup('/people');
    await screen.findByText('Person 0');
    await user.click(screen.getByRole('button', { name: /Name/ }));
    expect(new URLSearchParams(window.location.search).get('order')).toBe('asc');
    await user.click(screen.getByRole('button', { name: /Name/ }));
    expect(window.location.search).toBe('?sort=name&order=desc');
  });

  it('moves with j/k, selects with x and Shift+x, shows bulk actions, opens with Enter', async () => {
    const user = userEvent.setup();
    setup('/people');
    await screen.findByText('Person 0');
    await user.keyboard('jjx');
    expect(screen.getByText('Person 1').closest('tr')?.getAttribute('aria-selected')).toBe('true');
    await user.keyboard('jj{Shift>}X{/Shift}');
    expect(screen.queryAllByRole('button', { name: 'Bulk 3' })).toHaveLength(1);
    await user.keyboard('k');
    expect(screen.getByText('Person 2').closest('tr')?.hasAttribute('data-active')).toBe(true);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('button', { name: /Bulk/ })).toBeNull();
    await user.keyboard('{Enter}');
    expect(window.location.pathname).toBe('/people/p2');
  });

  it('keeps the row j gives it in a table without filters (issue 29: the SEPA list lost it at once)', async () => {
    const user = userEvent.setup();
    setup('/people', people, [], { unfiltered: true });
    await screen.findByText('Person 0');
    await user.keyboard('jj');
    await waitFor(() =>
      expect(screen.getByText('Person 1').closest('tr')?.hasAttribute('data-active')).toBe(true),
    );
  });

  it('shows the empty state', async () => {
    setup('/people', []);
    expect(await screen.findAllByText('No records found')).toHaveLength(1);
    expect(bodyRows()).toHaveLength(0);
  });

  it('remembers hidden columns per table', async () => {
    const user = userEvent.setup();
    setup('/people');
    await screen.findByText('Person 0');
    await user.click(screen.getByText('Columns'));
    await user.click(screen.getByRole('checkbox', { name: 'E-mail' }));
    expect(screen.queryByRole('columnheader', { name: /E-mail/ })).toBeNull();
    cleanup();
    setup('/people');
    await screen.findByText('Person 0');
    expect(screen.queryByRole('columnheader', { name: /E-mail/ })).toBeNull();
    expect(screen.queryByText('p0@example.com')).toBeNull();
  });
});

describe('DataTable filter bar', () => {
  const stages = ['X', 'Y', 'Z'].map((v) => ({ value: v, label: `Stage ${v}` }));
  const created: DataFilter = {
    key: 'created',
    label: 'Created',
    kind: 'dateRange',
    from: 'createdFrom',
    to: 'createdTo',
  };
  afterEach(() => vi.useRealTimers());

  it('adds a filter from the Filter menu by keyboard (f, arrows, Enter), shows it as a chip and removes it with Backspace', async () => {
    const user = userEvent.setup();
    const { requests } = setup('/people', people, [
      { key: 'stage', label: 'Stage', kind: 'multi', options: stages },
    ]);
    await screen.findByText('Person 0');
    expect(screen.queryByRole('group', { name: 'Stage' })).toBeNull();

    await user.keyboard('f');
    const menu = screen.getByRole('menu', { name: 'Filters of this list' });
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Status' }));
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Stage' }));
    await user.keyboard('{Enter}');
    expect(menu.isConnected).toBe(false);
    // The editor opens on its first control: Space ticks it.
    expect(document.activeElement).toBe(screen.getByRole('checkbox', { name: 'Stage X' }));
    await user.keyboard(' ');
    await waitFor(() => expect(window.location.search).toBe('?stage=X'));
    await waitFor(() => expect(requests.at(-1)?.filters).toEqual({ stage: ['X'] }));

    // Esc closes the editor and gives the keyboard to the chip, which says the value.
    await user.keyboard('{Escape}');
    const chip = screen.getByRole('button', { name: 'Stage: Stage X' });
    expect(document.activeElement).toBe(chip);
    expect(screen.queryByRole('dialog')).toBeNull();
    // The chosen filter is no longer offered by the menu.
    await user.click(screen.getByRole('button', { name: 'Filter' }));
    expect(screen.queryByRole('menuitem', { name: 'Stage' })).toBeNull();
    await user.keyboard('{Escape}');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Filter' }));

    await user.tab(); // Status is offered, not shown: Tab goes from the button to the chip
    expect(document.activeElement).toBe(chip);
    await user.keyboard('{Backspace}');
    await waitFor(() => expect(window.location.search).toBe(''));
    expect(screen.queryByRole('group', { name: 'Stage' })).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Filter' }));
  });

  it('drops a filter picked from the menu and left without a value, and the × removes a set one', async () => {
    const user = userEvent.setup();
    setup('/people?status=A');
    await screen.findByText('Person 0');
    // Every filter is set: the menu would be empty, so the button says there is nothing to add.
    expect((screen.getByRole('button', { name: 'Filter' }) as HTMLButtonElement).disabled).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Remove the Status filter' }));
    await waitFor(() => expect(window.location.search).toBe(''));
    expect((screen.getByRole('button', { name: 'Filter' }) as HTMLButtonElement).disabled).toBe(false);

    await user.keyboard('f');
    await user.keyboard('{Enter}');
    expect(screen.queryAllByRole('button', { name: 'Status: Any' })).toHaveLength(1);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('group', { name: 'Status' })).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Filter' }));
  });

  it("writes a preset's days, counted on Lisbon's calendar, to the range's two URL keys", async () => {
    // 23:30 UTC on 31 July is already 1 August in Lisbon (summer time, UTC+1).
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-07-31T23:30:00Z'));
    const user = userEvent.setup();
    const { requests } = setup('/people', people, [created]);
    await screen.findByText('Person 0');
    await user.click(screen.getByRole('button', { name: 'Filter' }));
    await user.click(screen.getByRole('menuitem', { name: 'Created' }));

    await user.click(screen.getByRole('button', { name: 'Last month' }));
    await waitFor(() => expect(window.location.search).toBe('?createdFrom=2026-07-01&createdTo=2026-07-31'));
    await waitFor(() =>
      expect(requests.at(-1)?.filters).toEqual({ createdFrom: ['2026-07-01'], createdTo: ['2026-07-31'] }),
    );
    expect(screen.queryAllByRole('button', { name: 'Created: 01/07/2026 – 31/07/2026' })).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Last month' }).getAttribute('aria-pressed')).toBe('true');

    await user.click(screen.getByRole('button', { name: '7 days' }));
    await waitFor(() => expect(window.location.search).toBe('?createdFrom=2026-07-26&createdTo=2026-08-01'));
    await user.click(screen.getByRole('button', { name: 'This month' }));
    await waitFor(() => expect(window.location.search).toBe('?createdFrom=2026-08-01&createdTo=2026-08-01'));
    await user.click(screen.getByRole('button', { name: 'Today' }));
    await waitFor(() => expect(window.location.search).toBe('?createdFrom=2026-08-01&createdTo=2026-08-01'));
    expect((screen.getByLabelText('From') as HTMLInputElement).value).toBe('01/08/2026');
  });

  it("reads days typed as dd/mm/aaaa in pt-PT, whatever the browser's date format, and refuses a day that does not exist", async () => {
    const user = userEvent.setup();
    setup('/people?createdTo=2026-11-26', people, [created], { locale: 'pt-PT' });
    await screen.findByText('Person 0');
    // Loaded from the URL: one chip for the range, in the console's language.
    const chip = screen.getByRole('button', { name: 'Created: até 26/11/2026' });
    await user.click(chip);
    const from = screen.getByLabelText('De') as HTMLInputElement;
    expect(from.type).toBe('text');
    expect(from.placeholder).toBe('dd/mm/aaaa');
    expect((screen.getByLabelText('Até') as HTMLInputElement).value).toBe('26/11/2026');

    await user.type(from, '01/11/2026{Enter}');
    await waitFor(() => expect(window.location.search).toBe('?createdFrom=2026-11-01&createdTo=2026-11-26'));
    expect(screen.queryAllByRole('button', { name: 'Created: 01/11/2026 – 26/11/2026' })).toHaveLength(1);

    await user.clear(from);
    await user.type(from, '31/02/2026{Enter}');
    expect(from.getAttribute('aria-invalid')).toBe('true');
    expect(window.location.search).toBe('?createdFrom=2026-11-01&createdTo=2026-11-26');
  });

  it('collapses to one line inside a detail page when there is nothing to show and nothing filtered', async () => {
    setup('/people', [], [], { collapseWhenEmpty: true });
    await waitFor(() => expect(screen.getByTestId('people-total').textContent).toBe('0 records'));
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.queryByRole('searchbox')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Filter' })).toBeNull();
    cleanup();
    // A filter that finds nothing keeps the toolbar, so it can be taken off.
    setup('/people?status=A', [], [], { collapseWhenEmpty: true });
    expect(await screen.findAllByText('No records found')).toHaveLength(1);
    expect(screen.queryAllByRole('button', { name: 'Status: Alpha' })).toHaveLength(1);
  });
});

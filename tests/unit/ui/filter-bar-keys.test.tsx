// @vitest-environment jsdom
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useEffect, useRef, useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { FilterBar } from '../../../src/components/DataTable/FilterBar';
import type { DataFilter } from '../../../src/components/DataTable/filters';
import { tableKeyAction } from '../../../src/components/DataTable/keyboard';
import type { MenuHandle } from '../../../src/components/Menu/Menu';
import { I18nProvider } from '../../../src/i18n/i18n';
import { useScreenKeyHandler } from '../../../src/kernel/key-dispatcher';

afterEach(cleanup);

const FILTERS: DataFilter[] = [
  {
    key: 'status',
    label: 'Status',
    kind: 'select',
    options: [
      { value: 'OPEN', label: 'Open' },
      { value: 'DONE', label: 'Done' },
    ],
  },
  { key: 'counterparty', label: 'Counterparty', kind: 'text' },
];

type Registration = 'dispatcher' | 'own window listener';

/**
 * A table's toolbar under a screen that takes the table keys (Enter is its "open the row"), registered
 * through the dispatcher or straight on `window` as the statements table does (issue 29 point 5).
 */
function Screen({
  registration,
  initial,
}: {
  registration: Registration;
  initial: Record<string, string[]>;
}) {
  const [values, setValues] = useState<Record<string, readonly string[]>>(initial);
  const menu = useRef<MenuHandle>(null);
  useScreenKeyHandler((event) => registration === 'dispatcher' && tableKeyAction(event) !== null);
  useEffect(() => {
    if (registration !== 'own window listener') return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (tableKeyAction(event)) event.preventDefault();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [registration]);
  return (
    <I18nProvider initial="en-GB">
      <FilterBar
        tableId="t"
        filters={FILTERS}
        values={values}
        onChange={(patch) => setValues((v) => ({ ...v, ...patch }))}
        menu={menu}
      />
    </I18nProvider>
  );
}

describe.each<Registration>(['dispatcher', 'own window listener'])(
  'Enter and Space activate every control of the filter bar (screen keys: %s)',
  (registration) => {
    describe.each(['{Enter}', ' '])('key %j', (key) => {
      it('the Filter button opens its menu, a menu item opens its chip’s editor', async () => {
        const user = userEvent.setup();
        render(<Screen registration={registration} initial={{}} />);
        screen.getByRole('button', { name: 'Filter' }).focus();
        await user.keyboard(key);
        const item = await screen.findByRole('menuitem', { name: 'Counterparty' });
        item.focus();
        await user.keyboard(key);
        await waitFor(() =>
          expect(screen.getByRole('button', { name: /^Counterparty:/ }).getAttribute('aria-expanded')).toBe(
            'true',
          ),
        );
        expect(screen.queryByRole('menu')).toBeNull();
      });

      it('a chip opens its editor, its × removes it', async () => {
        const user = userEvent.setup();
        render(<Screen registration={registration} initial={{ status: ['OPEN'] }} />);
        const chip = screen.getByRole('button', { name: 'Status: Open' });
        chip.focus();
        await user.keyboard(key);
        await waitFor(() => expect(chip.getAttribute('aria-expanded')).toBe('true'));

        screen.getByRole('button', { name: 'Remove the Status filter' }).focus();
        await user.keyboard(key);
        await waitFor(() => expect(screen.queryByRole('group', { name: 'Status' })).toBeNull());
      });
    });
  },
);

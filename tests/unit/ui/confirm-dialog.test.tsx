// @vitest-environment jsdom
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { type Confirmation, useConfirmation } from '../../../src/components/ConfirmDialog/ConfirmDialog';
import { I18nProvider } from '../../../src/i18n/i18n';
import { type ConfirmationExpected, confirmationModel } from '../../machines/confirmation.model';
import { expectedAfter, type ModelEvent, walksOf } from '../../machines/model';

afterEach(cleanup);

interface Harness {
  calls: number;
  done: unknown[];
  settle(ok: boolean, value: unknown): void;
}

/** A screen with one action behind the confirmation: the opener button and the dialog. */
function Screen({ harness }: { harness: Harness }) {
  const confirmation: Confirmation = useConfirmation();
  return (
    <>
      <button
        type="button"
        onClick={() =>
          confirmation.ask({
            title: 'Disable Ana?',
            message: 'ana@example.com will no longer sign in.',
            confirmLabel: 'Disable',
            danger: true,
            action: () => {
              harness.calls++;
              return new Promise((resolve, reject) => {
                harness.settle = (ok, value) => (ok ? resolve(value) : reject(value));
              });
            },
            onDone: (output) => harness.done.push(output),
          })
        }
      >
        Disable user
      </button>
      {confirmation.dialog}
    </>
  );
}

function mount(): Harness {
  const harness: Harness = { calls: 0, done: [], settle: () => {} };
  render(
    <I18nProvider initial="en-GB">
      <Screen harness={harness} />
    </I18nProvider>,
  );
  return harness;
}

const dialog = () => screen.queryByRole('alertdialog');

describe('ConfirmDialog driven through the confirmation machine paths, by keyboard', () => {
  // The machine test's walks, minus those with an ignored event (a key has no "ignored" gesture
  // here: the second Enter while submitting is pressed below). Each step is checked against the
  // specification's table, not against the machine.
  const journeys = walksOf(confirmationModel, undefined)
    .map((w) => w.events)
    .filter((events) => {
      let expected = confirmationModel.initial(undefined);
      return events.every((event) => {
        const row = confirmationModel.transitions[expected.state]?.[event.type];
        expected = expectedAfter(confirmationModel, expected, event);
        return row !== undefined;
      });
    })
    .filter(
      (events, i, all) =>
        !all.some(
          (other, j) =>
            j !== i &&
            other.length > events.length &&
            events.every((e, k) => JSON.stringify(other[k]) === JSON.stringify(e)),
        ),
    );

  for (const events of journeys) {
    const label = events.map((e) => e.type).join(' → ') || '(start)';
    it(`walks ${label}`, async () => {
      const user = userEvent.setup();
      const harness = mount();
      const opener = screen.getByRole('button', { name: 'Disable user' });
      let expected: ConfirmationExpected = confirmationModel.initial(undefined);

      for (const [i, step] of [{ type: 'xstate.init' } as ModelEvent, ...events].entries()) {
        const type = step.type;
        if (i > 0) expected = expectedAfter(confirmationModel, expected, step);
        if (type === 'confirm.open') {
          opener.focus();
          await user.keyboard('{Enter}');
        } else if (type === 'confirm.accept' || type === 'confirm.retry') {
          await user.keyboard('{Enter}');
          // A second confirmation while the first is in flight must not send it again.
          await user.keyboard('{Enter}');
        } else if (type === 'confirm.cancel') {
          await user.keyboard('{Escape}');
        } else if (type === 'xstate.done.actor.submit') {
          await act(async () => harness.settle(true, step.output));
        } else if (type === 'xstate.error.actor.submit') {
          await act(async () => harness.settle(false, step.error));
        }

        if (expected.dialog === 'closed') {
          await waitFor(() => expect(dialog()).toBeNull());
          // Focus goes back to the opener once a dialog has been open.
          if (i > 0) expect(document.activeElement).toBe(opener);
        } else {
          const open = await screen.findByRole('alertdialog', { name: 'Disable Ana?' });
          expect(open.contains(document.activeElement)).toBe(true);
          expect(open.getAttribute('aria-busy')).toBe(String(expected.dialog === 'working'));
          if (expected.dialog === 'asking') {
            expect(screen.queryByRole('alert')).toBeNull();
            expect(screen.getByRole('button', { name: 'Disable' })).toBe(document.activeElement);
            // Focus stays trapped: Tab twice comes back to where it was.
            await user.tab();
            expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' }));
            await user.tab();
            expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Disable' }));
          }
          if (expected.dialog === 'working') {
            // Working: the button says so and refuses a second press (aria-disabled keeps its focus).
            expect(screen.getByRole('button', { name: 'Working…' }).getAttribute('aria-disabled')).toBe(
              'true',
            );
          }
          if (expected.dialog === 'failed') {
            expect(expected.error).toBe('USER_NOT_NEW');
            expect(screen.getByRole('alert').textContent).toBe(
              'This user has already verified the e-mail address',
            );
            expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Try again' }));
          }
        }
        expect(harness.calls).toBe(expected.requests.length);
        expect(harness.done).toEqual(expected.reports);
      }
    });
  }
});

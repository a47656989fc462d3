// @vitest-environment jsdom
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { AnyMachineSnapshot } from 'xstate';
import { adjacencyMapToArray, getAdjacencyMap, getShortestPaths } from 'xstate/graph';
import { confirmationMachine } from '../../../machines/confirmation';
import { type Confirmation, useConfirmation } from '../../../src/components/ConfirmDialog/ConfirmDialog';
import { I18nProvider } from '../../../src/i18n/i18n';
import {
  type AnyConfirmationEvent,
  confirmationTraversal,
  serializeConfirmation,
} from '../../machines/confirmation.fixtures';

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

type Step = { event: AnyConfirmationEvent; state: AnyMachineSnapshot };

describe('ConfirmDialog driven through the confirmation machine paths, by keyboard', () => {
  const shortest = getShortestPaths(confirmationMachine, confirmationTraversal);
  const byState = new Map(shortest.map((p) => [serializeConfirmation(p.state), p.steps as Step[]]));
  // Every state by its shortest path, then every transition (cancel, retry, reopen…) after the path to its source.
  const journeys: Step[][] = [
    ...shortest.map((p) => p.steps as Step[]),
    // Ignored events (self-loops) are the machine test's business: a key has no "ignored" gesture here.
    ...adjacencyMapToArray(getAdjacencyMap(confirmationMachine, confirmationTraversal))
      .filter((edge) => serializeConfirmation(edge.state) !== serializeConfirmation(edge.nextState))
      .map((edge) => [
        ...(byState.get(serializeConfirmation(edge.state)) ?? []),
        { event: edge.event, state: edge.nextState },
      ]),
  ];

  for (const steps of journeys) {
    const label = steps.map((s) => s.event.type).join(' → ');
    it(`walks ${label}`, async () => {
      const user = userEvent.setup();
      const harness = mount();
      const opener = screen.getByRole('button', { name: 'Disable user' });
      let expectedCalls = 0;
      let expectedDone = 0;

      for (const step of steps) {
        const type = step.event.type;
        if (type === 'confirm.open') {
          opener.focus();
          await user.keyboard('{Enter}');
        } else if (type === 'confirm.accept' || type === 'confirm.retry') {
          await user.keyboard('{Enter}');
          expectedCalls++;
          // A second confirmation while the first is in flight must not send it again.
          await user.keyboard('{Enter}');
        } else if (type === 'confirm.cancel') {
          await user.keyboard('{Escape}');
        } else if (type === 'xstate.done.actor.submit') {
          expectedDone++;
          await act(async () => harness.settle(true, (step.event as { output: unknown }).output));
        } else if (type === 'xstate.error.actor.submit') {
          await act(async () => harness.settle(false, (step.event as { error: unknown }).error));
        }

        const value = step.state.value;
        if (value === 'idle' || value === 'done') {
          await waitFor(() => expect(dialog()).toBeNull());
          if (type !== 'xstate.init') expect(document.activeElement).toBe(opener);
        } else {
          const open = await screen.findByRole('alertdialog', { name: 'Disable Ana?' });
          expect(open.contains(document.activeElement)).toBe(true);
          if (value === 'confirming') {
            expect(screen.getByRole('button', { name: 'Disable' })).toBe(document.activeElement);
            // Focus stays trapped: Tab twice comes back to where it was.
            await user.tab();
            expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' }));
            await user.tab();
            expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Disable' }));
          }
          if (value === 'submitting') {
            expect(open.getAttribute('aria-busy')).toBe('true');
            expect(screen.getByRole('button', { name: 'Working…' })).toBeTruthy();
          }
          if (value === 'failed') {
            expect(screen.getByRole('alert').textContent).toBe(
              'This user has already verified the e-mail address',
            );
            expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Try again' }));
          }
        }
        expect(harness.calls).toBe(expectedCalls);
        expect(harness.done).toHaveLength(expectedDone);
      }
    });
  }
});

import { expect } from 'vitest';
import type { AnyMachineSnapshot } from 'xstate';
import { confirmationMachine } from '../../machines/confirmation';
import type { Expected, MachineModel, ModelEvent } from './model';

/**
 * The confirmation machine as docs/decisions/0051 and the specification (§ confirmation prompts)
 * describe it, written without reading the machine: shared by the machine test and the dialog's UI
 * test, which walk the same paths.
 */

export interface ConfirmationExpected extends Expected {
  /** What the dialog shows: nothing (closed), the question, the spinner, or the error with retry. */
  dialog: 'closed' | 'asking' | 'working' | 'failed';
  /** The server code the dialog explains after a failure. */
  error: string | null;
  /** Outputs handed to `onDone`, once per success. */
  reports: unknown[];
}

export const SUBMIT_OUTPUT = { ok: true };
export const SUBMIT_ERROR = { code: 'USER_NOT_NEW' };

const submitted = (e: ConfirmationExpected): ConfirmationExpected => ({
  ...e,
  state: 'submitting',
  dialog: 'working',
  error: null,
  requests: [...e.requests, { actor: 'submit', input: undefined }],
});
const closed = (e: ConfirmationExpected, state: 'idle' | 'done'): ConfirmationExpected => ({
  ...e,
  state,
  dialog: 'closed',
  error: null,
});
const asking = (e: ConfirmationExpected): ConfirmationExpected => ({
  ...e,
  state: 'confirming',
  dialog: 'asking',
  error: null,
});

/** What `ConfirmDialog` reads from the snapshot to render itself (mirrors the component). */
export function dialogProps(snapshot: AnyMachineSnapshot) {
  return {
    open: snapshot.hasTag('open'),
    busy: snapshot.hasTag('busy'),
    retry: snapshot.matches('failed'),
    error: snapshot.context.error as string | null,
  };
}

const looks =
  (dialog: ReturnType<typeof dialogProps>) =>
  (
    { world, snapshot }: { world: { reports: unknown[] }; snapshot: AnyMachineSnapshot },
    e: ConfirmationExpected,
  ) => {
    expect(dialogProps(snapshot)).toEqual(dialog);
    expect(world.reports).toEqual(e.reports);
  };

export const confirmationModel: MachineModel<undefined, { reports: unknown[] }, ConfirmationExpected> = {
  name: 'confirmation',
  machine: confirmationMachine,
  starts: [{ name: 'a screen with one confirm prompt', input: undefined }],
  events: {
    open: { type: 'confirm.open' },
    accept: { type: 'confirm.accept' },
    cancel: { type: 'confirm.cancel' },
    retry: { type: 'confirm.retry' },
    'server: ok': { type: 'xstate.done.actor.submit', output: SUBMIT_OUTPUT },
    'server: USER_NOT_NEW': { type: 'xstate.error.actor.submit', error: SUBMIT_ERROR },
  },
  serializeState: (s) => JSON.stringify({ value: s.value, error: s.context.error }),
  actors: ['submit'],
  world: () => {
    const world = { reports: [] as unknown[] };
    return {
      world,
      actions: { reportDone: (_: unknown, p: { output: unknown }) => world.reports.push(p.output) },
    };
  },
  initial: () => ({ state: 'idle', requests: [], dialog: 'closed', error: null, reports: [] }),
  transitions: {
    idle: { 'confirm.open': asking },
    // Enter confirms; Esc closes without sending anything.
    confirming: { 'confirm.accept': submitted, 'confirm.cancel': (e) => closed(e, 'idle') },
    // In flight: a second Enter sends nothing, and the request cannot be taken back (cancel ignored).
    submitting: {
      'xstate.done.actor.submit': (e, ev: ModelEvent) => ({
        ...closed(e, 'done'),
        reports: [...e.reports, ev.output],
      }),
      'xstate.error.actor.submit': (e, ev: ModelEvent) => ({
        ...e,
        state: 'failed',
        dialog: 'failed',
        error: (ev.error as { code: string }).code,
      }),
    },
    // The error stays with "Try again" (sends again) and Cancel (closes, back to idle).
    failed: { 'confirm.retry': submitted, 'confirm.cancel': (e) => closed(e, 'idle') },
    // The next prompt opens afresh.
    done: { 'confirm.open': asking },
  },
  states: {
    idle: looks({ open: false, busy: false, retry: false, error: null }),
    confirming: looks({ open: true, busy: false, retry: false, error: null }),
    submitting: looks({ open: true, busy: true, retry: false, error: null }),
    failed: looks({ open: true, busy: false, retry: true, error: SUBMIT_ERROR.code }),
    done: looks({ open: false, busy: false, retry: false, error: null }),
  },
};

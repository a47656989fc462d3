import { assign, fromPromise, setup } from 'xstate';
import { errorCodeOf } from './session';

export interface ConfirmationContext {
  /** Server error code of the last failed attempt, shown in the dialog with retry/cancel. */
  error: string | null;
}

export type ConfirmationEvent =
  | { type: 'confirm.open' }
  | { type: 'confirm.accept' }
  | { type: 'confirm.cancel' }
  | { type: 'confirm.retry' };

/** The invoked actor's id, so its outcomes are `xstate.done.actor.submit` / `xstate.error.actor.submit`. */
export const SUBMIT_ACTOR_ID = 'submit';

/**
 * Behind every confirmation prompt (disable, enable, verify, resend, delete, settle…). The action
 * itself is the `submit` actor the console provides; the machine only decides when it may run, so
 * a second Enter while it is in flight can never send the request twice.
 */
export const confirmationMachine = setup({
  types: {
    context: {} as ConfirmationContext,
    events: {} as ConfirmationEvent,
  },
  actors: {
    submit: fromPromise<unknown, void>(() => {
      throw new Error('confirmation machine: actor "submit" must be provided');
    }),
  },
  actions: {
    // The console closes the dialog and refreshes its data here; tests count the calls.
    reportDone: (_, _params: { output: unknown }) => {},
  },
}).createMachine({
  id: 'confirmation',
  initial: 'idle',
  context: { error: null },
  states: {
    idle: {
      on: { 'confirm.open': { target: 'confirming', actions: assign({ error: null }) } },
    },
    confirming: {
      tags: ['open'],
      on: { 'confirm.accept': 'submitting', 'confirm.cancel': 'idle' },
    },
    submitting: {
      tags: ['open', 'busy'],
      invoke: {
        id: SUBMIT_ACTOR_ID,
        src: 'submit',
        onDone: {
          target: 'done',
          actions: { type: 'reportDone', params: ({ event }) => ({ output: event.output }) },
        },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => errorCodeOf(event.error) }) },
      },
    },
    failed: {
      tags: ['open'],
      on: {
        'confirm.retry': { target: 'submitting', actions: assign({ error: null }) },
        'confirm.cancel': { target: 'idle', actions: assign({ error: null }) },
      },
    },
    done: {
      on: { 'confirm.open': { target: 'confirming', actions: assign({ error: null }) } },
    },
  },
});

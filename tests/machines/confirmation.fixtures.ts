import type { AnyMachineSnapshot } from 'xstate';
import type { ConfirmationEvent } from '../../machines/confirmation';

export type AnyConfirmationEvent = ConfirmationEvent | { type: string; output?: unknown; error?: unknown };

/** Shared by the machine's model-based test and the dialog's UI test, so both walk the same paths. */
// Invoked actors never run during traversal: their outcomes are listed as events (notes §1.5.1).
export const confirmationEvents: AnyConfirmationEvent[] = [
  { type: 'confirm.open' },
  { type: 'confirm.accept' },
  { type: 'confirm.cancel' },
  { type: 'confirm.retry' },
  { type: 'xstate.done.actor.submit', output: { ok: true } },
  { type: 'xstate.error.actor.submit', error: { code: 'USER_NOT_NEW' } },
];

export const serializeConfirmation = (snapshot: AnyMachineSnapshot) =>
  JSON.stringify({ value: snapshot.value, error: snapshot.context.error });

const filterEvents = (snapshot: AnyMachineSnapshot, event: AnyConfirmationEvent) => {
  const outcome = /^xstate\.(done|error)\.actor\.(.+)$/.exec(event.type);
  return !outcome || Boolean(outcome[2] && snapshot.children[outcome[2]]);
};

export const confirmationTraversal = {
  events: confirmationEvents as ConfirmationEvent[],
  serializeState: serializeConfirmation,
  serializeEvent: JSON.stringify as (e: ConfirmationEvent) => string,
  filterEvents,
  limit: 200,
};

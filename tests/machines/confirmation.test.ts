import { describe, expect, it } from 'vitest';
import { type AnyMachineSnapshot, createActor, fromPromise, waitFor } from 'xstate';
import { adjacencyMapToArray, getAdjacencyMap, getShortestPaths, getStateNodes } from 'xstate/graph';
import { type ConfirmationEvent, confirmationMachine } from '../../machines/confirmation';
import {
  type AnyConfirmationEvent,
  confirmationTraversal,
  serializeConfirmation,
} from './confirmation.fixtures';

type AnyEvent = AnyConfirmationEvent;
const serializeState = serializeConfirmation;
const options = confirmationTraversal;

type Step = { event: AnyEvent; state: AnyMachineSnapshot };

/** Replays steps on a live actor whose `submit` only settles when a step says so (notes §1.5.2). */
async function drive(steps: Step[]) {
  let settle: ((ok: boolean, value: unknown) => void) | null = null;
  let submits = 0;
  const reported: unknown[] = [];
  const actor = createActor(
    confirmationMachine.provide({
      actors: {
        submit: fromPromise<unknown, void>(() => {
          submits++;
          return new Promise((resolve, reject) => {
            settle = (ok, value) => (ok ? resolve(value) : reject(value));
          });
        }),
      },
      actions: { reportDone: (_, params) => reported.push(params.output) },
    }),
  ).start();

  let expectedSubmits = 0;
  let expectedReports = 0;
  for (const step of steps) {
    const type = step.event.type;
    if (type === 'xstate.init') {
      // the initial snapshot: nothing to send
    } else if (type.startsWith('xstate.done.actor.') || type.startsWith('xstate.error.actor.')) {
      expect(settle, 'submit is in flight').not.toBeNull();
      const ok = type.startsWith('xstate.done');
      settle!(ok, ok ? (step.event as { output: unknown }).output : (step.event as { error: unknown }).error);
      settle = null;
      if (ok) expectedReports++;
      await waitFor(actor, (s) => !s.children.submit, { timeout: 1000 });
    } else {
      const before = actor.getSnapshot();
      actor.send(step.event as ConfirmationEvent);
      if (!before.matches('submitting') && actor.getSnapshot().matches('submitting')) expectedSubmits++;
    }
    const live = actor.getSnapshot();
    expect(live.value).toEqual(step.state.value);
    expect(live.context.error).toBe(step.state.context.error);
    expect(submits).toBe(expectedSubmits);
    expect(reported).toHaveLength(expectedReports);
  }
  actor.stop();
}

describe('confirmation machine (model-based)', () => {
  const paths = getShortestPaths(confirmationMachine, options);

  for (const path of paths) {
    const label = path.steps.map((s) => s.event.type).join(' → ');
    it(`reaches ${serializeState(path.state)} via ${label}`, async () => {
      await drive(path.steps as Step[]);
    });
  }

  it('reaches every state node', () => {
    const reached = new Set(paths.map((p) => JSON.stringify(p.state.value)));
    const nodes = getStateNodes(confirmationMachine.root)
      .filter((n) => n.type === 'atomic')
      .map((n) => JSON.stringify(n.key));
    expect([...reached].sort()).toEqual(nodes.sort());
  });

  it('submits once however many times the admin confirms while it is in flight', async () => {
    let submits = 0;
    const actor = createActor(
      confirmationMachine.provide({
        actors: { submit: fromPromise<unknown, void>(() => new Promise(() => submits++)) },
      }),
    ).start();
    actor.send({ type: 'confirm.open' });
    for (let i = 0; i < 5; i++) actor.send({ type: 'confirm.accept' });
    actor.send({ type: 'confirm.cancel' });
    expect(actor.getSnapshot().value).toBe('submitting');
    expect(submits).toBe(1);
    actor.stop();
  });
});

describe('confirmation machine (transition coverage)', () => {
  const edges = adjacencyMapToArray(getAdjacencyMap(confirmationMachine, options));
  const shortest = new Map(
    getShortestPaths(confirmationMachine, options).map((p) => [serializeState(p.state), p]),
  );

  it('has every designed transition to exercise', () => {
    // open, accept, cancel, done, error, retry, cancel-after-failure, reopen-after-done
    const moves = new Set(edges.filter((e) => serializeState(e.state) !== serializeState(e.nextState)));
    expect(moves.size).toBe(8);
  });

  for (const edge of edges) {
    const from = serializeState(edge.state);
    it(`exercises ${from} --${JSON.stringify(edge.event)}--> ${serializeState(edge.nextState)}`, async () => {
      const prefix = shortest.get(from);
      expect(prefix, `no path to ${from}`).toBeDefined();
      await drive([...(prefix!.steps as Step[]), { event: edge.event, state: edge.nextState }]);
    });
  }
});

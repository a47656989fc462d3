import { describe, expect, it } from 'vitest';
import {
  type AnyMachineSnapshot,
  type AnyStateMachine,
  createActor,
  fromPromise,
  initialTransition,
  transition,
} from 'xstate';
import { adjacencyMapToArray, getAdjacencyMap, getShortestPaths, getSimplePaths } from 'xstate/graph';

/**
 * The model-based harness of every machine in `machines/` (DESIGN §7, docs/decisions/0056).
 *
 * The machine only supplies the *paths*: `xstate/graph` walks it to find event sequences (every
 * shortest path, every simple path, every edge after the shortest path to its source). What each
 * step must produce comes from the machine's model file — a table written from the specification,
 * per state and per event — and is checked on a live actor whose invoked actors are deferred stubs
 * that log each request. A machine that is wrong therefore disagrees with the table instead of
 * agreeing with itself.
 */

export type ModelEvent = { type: string } & Record<string, unknown>;

/** One call of an invoked actor: which one, and the input it got (the request that was sent). */
export interface Request {
  actor: string;
  input: unknown;
}

/** What the specification expects after a step; each machine adds its own observable facts. */
export interface Expected {
  /** The state the actor must be in (a flat state name). */
  state: string;
  /** Every request sent so far, in order. */
  requests: readonly Request[];
}

/** What a per-state check may look at. */
export interface Observed<W> {
  /** The machine's world as the console sees it (cookie jar, reports, …), written by its actions. */
  world: W;
  requests: readonly Request[];
  /** The live snapshot, to read what the screen reads from it (tags, context fields). */
  snapshot: AnyMachineSnapshot;
}

// biome-ignore lint/suspicious/noExplicitAny: action implementations receive xstate's own argument types
type ActionImpl = (args: any, params: any) => void;

export interface MachineModel<I, W, M extends Expected> {
  name: string;
  machine: AnyStateMachine;
  /** Start inputs, each walked separately (a machine without input: one start with `undefined`). */
  starts: ReadonlyArray<{ name: string; input: I }>;
  /**
   * Every event the traversal may send, by a short name used in test titles. Invoked actors never
   * run during traversal, so their outcomes are events too: `xstate.done.actor.<id>` with `output`,
   * `xstate.error.actor.<id>` with `error`. Give one event per guard branch.
   */
  events: Record<string, ModelEvent>;
  /** Narrow projection that bounds the graph; it only shapes the paths, never the expectations. */
  serializeState(snapshot: AnyMachineSnapshot): string;
  /** Ids of the invoked actors (the same as their `src` names); each becomes a deferred stub. */
  actors: readonly string[];
  /** A fresh observable world for one walk, and the named actions that write into it. */
  world(input: I): { world: W; actions?: Record<string, ActionImpl> };
  /** What the specification expects before any event. */
  initial(input: I): M;
  /**
   * From the specification: for each state, each event type it reacts to and what follows. An
   * event a state does not list must change nothing (same state, no request, same world).
   */
  transitions: Record<string, Record<string, (expected: M, event: ModelEvent) => M>>;
  /** From the specification: what the world must look like in each state. */
  states: Record<string, (observed: Observed<W>, expected: M) => void>;
  /** Bounds the traversal; a runaway graph throws instead of hanging. Default 500. */
  limit?: number;
}

const OUTCOME = /^xstate\.(done|error)\.actor\.(.+)$/;

/** What the traversal needs: nothing of the expectations. */
type Graph<I> = Pick<
  MachineModel<I, unknown, Expected>,
  'name' | 'machine' | 'events' | 'serializeState' | 'limit'
>;

function traversal<I>(model: Graph<I>, input: I) {
  return {
    input,
    events: Object.values(model.events),
    serializeState: model.serializeState,
    serializeEvent: (event: ModelEvent) => JSON.stringify(event),
    // An actor's outcome can only happen while that actor runs.
    filterEvents: (snapshot: AnyMachineSnapshot, event: ModelEvent) => {
      const outcome = OUTCOME.exec(event.type);
      return !outcome || Boolean(outcome[2] && snapshot.children[outcome[2]]);
    },
    limit: model.limit ?? 500,
  };
}

/** The expected model after `event`, from the table alone. */
export function expectedAfter<M extends Expected>(
  model: Pick<MachineModel<unknown, unknown, M>, 'transitions'>,
  expected: M,
  event: ModelEvent,
): M {
  const next = model.transitions[expected.state]?.[event.type];
  return next ? next(expected, event) : expected;
}

export interface Walk {
  events: ModelEvent[];
  /** Which families proposed it (shortest, simple, edge). */
  from: Set<string>;
}

/**
 * Whether the machine itself follows `steps` from its start. Simple paths join, at each state name, the
 * way in of one context to the ways out of another (the first one met): where a guard reads the context
 * (a preview whose balances do not add up sends nothing without a note), a joined path may go where the
 * machine never does. Those are dropped; the edge walks still cover every transition.
 */
function followed<I>(
  logic: AnyStateMachine,
  input: I,
  steps: ReadonlyArray<{ state: AnyMachineSnapshot; event: { type: string } }>,
): boolean {
  let [snapshot] = initialTransition(logic, input);
  for (const step of steps) {
    if (step.event.type !== 'xstate.init') [snapshot] = transition(logic, snapshot, step.event);
    if (JSON.stringify(snapshot.value) !== JSON.stringify(step.state.value)) return false;
  }
  return true;
}

/**
 * Event sequences to walk for one start: every shortest path (one per distinct projected state),
 * every simple path between state names, and every edge of the adjacency map (the shortest path
 * to its source, then the edge, ignored events included). A sequence that is a prefix of another
 * is dropped, since each step of the longer one is checked.
 */
export function walksOf<I>(model: Graph<I>, input: I): Walk[] {
  // biome-ignore lint/suspicious/noExplicitAny: the graph functions are typed by the machine's own events
  const options = traversal(model, input) as any;
  const logic = model.machine;
  const eventsOf = (steps: ReadonlyArray<{ event: { type: string } }>) =>
    steps.map((s) => s.event as ModelEvent).filter((e) => e.type !== 'xstate.init');
  const shortest = getShortestPaths(logic, options);
  const bySource = new Map(shortest.map((p) => [model.serializeState(p.state), eventsOf(p.steps)]));
  const proposed: Array<[string, ModelEvent[]]> = [
    ...shortest.map((p): [string, ModelEvent[]] => ['shortest', eventsOf(p.steps)]),
    // Simple paths over state names only: every cycle-free journey through the states. Over the
    // narrow projection they multiply with each context variant (hundreds for the session).
    ...getSimplePaths(logic, {
      ...options,
      serializeState: (s: AnyMachineSnapshot) => JSON.stringify(s.value),
    })
      .filter((p) => followed(logic, input, p.steps))
      .map((p): [string, ModelEvent[]] => ['simple', eventsOf(p.steps)]),
    ...adjacencyMapToArray(getAdjacencyMap(logic, options)).map((edge): [string, ModelEvent[]] => {
      const prefix = bySource.get(model.serializeState(edge.state));
      if (!prefix) throw new Error(`${model.name}: no shortest path to ${model.serializeState(edge.state)}`);
      return ['edge', [...prefix, edge.event as ModelEvent]];
    }),
  ];
  const key = (events: ModelEvent[]) => events.map((e) => JSON.stringify(e));
  const byKey = new Map<string, Walk>();
  for (const [family, events] of proposed) {
    const k = JSON.stringify(key(events));
    const walk = byKey.get(k) ?? { events, from: new Set<string>() };
    walk.from.add(family);
    byKey.set(k, walk);
  }
  const all = [...byKey.values()].sort((a, b) => b.events.length - a.events.length);
  const kept: Walk[] = [];
  for (const walk of all) {
    const k = key(walk.events);
    const longer = kept.find((w) => k.every((e, i) => JSON.stringify(w.events[i]) === e));
    if (longer) for (const f of walk.from) longer.from.add(f);
    else kept.push(walk);
  }
  return kept.reverse();
}

/** Replays `events` on a live actor and checks every step against the table. */
export async function walk<I, W, M extends Expected>(
  model: MachineModel<I, W, M>,
  input: I,
  events: readonly ModelEvent[],
  label: (event: ModelEvent) => string = (e) => e.type,
): Promise<void> {
  const requests: Request[] = [];
  const pending = new Map<string, { resolve(value: unknown): void; reject(error: unknown): void }>();
  const stubs = Object.fromEntries(
    model.actors.map((id) => [
      id,
      fromPromise<unknown, unknown>(({ input: actorInput }) => {
        requests.push({ actor: id, input: actorInput });
        return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
      }),
    ]),
  );
  const { world, actions } = model.world(input);
  const actor = createActor(model.machine.provide({ actors: stubs, actions: actions ?? {} }), {
    input,
  }).start();
  try {
    let expected = model.initial(input);
    const check = (where: string) => {
      const snapshot = actor.getSnapshot();
      expect(snapshot.value, `${where}: state`).toEqual(expected.state);
      expect(requests, `${where}: requests sent`).toEqual(expected.requests);
      const look = model.states[expected.state];
      if (!look) throw new Error(`${model.name}: no expectation written for state "${expected.state}"`);
      look({ world, requests, snapshot }, expected);
    };
    check('at start');
    for (const [i, event] of events.entries()) {
      expected = expectedAfter(model, expected, event);
      const outcome = OUTCOME.exec(event.type);
      const id = outcome?.[2];
      if (outcome && id) {
        const running = pending.get(id);
        if (!running) throw new Error(`step ${i + 1} (${label(event)}): actor "${id}" is not running`);
        pending.delete(id);
        if (outcome[1] === 'done') running.resolve(event.output);
        else running.reject(event.error);
        // The stub's promise settles on a microtask; the actor reacts before the next macrotask.
        await new Promise((resolve) => setTimeout(resolve, 0));
      } else {
        actor.send(event);
      }
      check(`after step ${i + 1} (${label(event)})`);
    }
  } finally {
    actor.stop();
  }
}

/**
 * Declares the tests of one machine: a test per walk and per start, and a coverage test that every
 * row of the table was walked and every state's expectation was used.
 */
export function describeModel<I, W, M extends Expected>(model: MachineModel<I, W, M>): void {
  const names = new Map(Object.entries(model.events).map(([name, e]) => [JSON.stringify(e), name]));
  const label = (event: ModelEvent) => names.get(JSON.stringify(event)) ?? event.type;

  describe(`${model.name} machine (model-based, expectations from the specification)`, () => {
    const walked = new Set<string>();
    for (const start of model.starts) {
      const walks = walksOf(model, start.input);
      // The coverage below is computed from the table alone, before any test runs.
      for (const w of walks) {
        let expected = model.initial(start.input);
        walked.add(`state ${expected.state}`);
        for (const event of w.events) {
          if (model.transitions[expected.state]?.[event.type])
            walked.add(`${expected.state} on ${event.type}`);
          expected = expectedAfter(model, expected, event);
          walked.add(`state ${expected.state}`);
        }
      }
      describe(start.name, () => {
        for (const w of walks) {
          const title = w.events.length ? w.events.map(label).join(' → ') : '(start)';
          it(`${title} [${[...w.from].join(', ')}]`, () => walk(model, start.input, w.events, label));
        }
      });
    }

    it('walks every row of the table and every state it describes', () => {
      const rows = [
        ...Object.entries(model.transitions).flatMap(([state, on]) =>
          Object.keys(on).map((type) => `${state} on ${type}`),
        ),
        ...Object.keys(model.states).map((state) => `state ${state}`),
      ];
      expect(rows.filter((row) => !walked.has(row))).toEqual([]);
    });
  });
}

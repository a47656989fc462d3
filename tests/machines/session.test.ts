import { describe, expect, it } from 'vitest';
import { type AnyMachineSnapshot, createActor, fromPromise, waitFor } from 'xstate';
import { adjacencyMapToArray, getAdjacencyMap, getShortestPaths, getStateNodes } from 'xstate/graph';
import {
  type Credentials,
  type LoginResult,
  type Profile,
  type SessionEvent,
  type SessionInput,
  sessionMachine,
} from '../../machines/session';

const admin: Profile = {
  user: { id: 'u1', email: 'admin@example.com', name: 'Ada', fullName: 'Ada Admin', role: 'ADMIN' },
  hasUser: true,
  avatar: null,
  selectedRole: 'ADMIN',
  selectedLocale: 'pt-PT',
  status: 'PROFESSIONAL_VERIFIED',
  adminData: { permissions: [] },
};
const customer: Profile = { ...admin, selectedRole: 'CUSTOMER', adminData: null };

type AnyEvent = SessionEvent | { type: string; output?: unknown; error?: unknown };

// The traversal never runs invoked actors, so their outcomes are listed as events (pitfall 1 of the notes).
const events: AnyEvent[] = [
  { type: 'session.login', email: 'admin@example.com', password: 'secret-pass' },
  { type: 'session.logout' },
  { type: 'session.unauthorized', path: '/customers?q=x' },
  { type: 'xstate.done.actor.fetchCurrentUser', output: admin },
  { type: 'xstate.done.actor.fetchCurrentUser', output: customer },
  { type: 'xstate.error.actor.fetchCurrentUser', error: { code: 'UNAUTHORIZED' } },
  { type: 'xstate.done.actor.login', output: { token: 'tok-new', user: admin } },
  { type: 'xstate.done.actor.login', output: { token: 'tok-cust', user: customer } },
  { type: 'xstate.error.actor.login', error: { code: 'EMAIL_OR_PASSWORD_INVALID' } },
  { type: 'xstate.error.actor.login', error: new TypeError('Failed to fetch') },
  { type: 'xstate.done.actor.logout', output: undefined },
  { type: 'xstate.error.actor.logout', error: { code: 'UNAUTHORIZED' } },
];

const serializeState = (snapshot: AnyMachineSnapshot) =>
  JSON.stringify({
    value: snapshot.value,
    token: snapshot.context.token,
    admin: snapshot.context.user?.adminData != null,
    loginError: snapshot.context.loginError,
    redirectPath: snapshot.context.redirectPath,
  });
const serializeEvent = (event: AnyEvent) => JSON.stringify(event);

// Actor outcomes only exist while their invoking state runs; elsewhere they cannot happen.
const filterEvents = (snapshot: AnyMachineSnapshot, event: AnyEvent) => {
  const outcome = /^xstate\.(done|error)\.actor\.(.+)$/.exec(event.type);
  return !outcome || Boolean(outcome[2] && snapshot.children[outcome[2]]);
};

const inputs: SessionInput[] = [{ token: null }, { token: 'tok-cookie' }];
const options = (input: SessionInput) => ({
  input,
  events: events as SessionEvent[],
  serializeState,
  serializeEvent: serializeEvent as (e: SessionEvent) => string,
  filterEvents,
  limit: 500,
});

type Step = { event: AnyEvent; state: AnyMachineSnapshot };

interface Deferred {
  settle(outcome: { ok: true; value: unknown } | { ok: false; error: unknown }): void;
}

/** Replays steps on a live actor whose actors only settle when the step says so (pitfall 2). */
async function drive(input: SessionInput, steps: Step[]) {
  const pending = new Map<string, Deferred>();
  const deferred = <T>(id: string) =>
    new Promise<T>((resolve, reject) => {
      pending.set(id, {
        settle: (o) => (o.ok ? resolve(o.value as T) : reject(o.error)),
      });
    });
  let cookie: string | null = input.token;
  const actor = createActor(
    sessionMachine.provide({
      actors: {
        login: fromPromise<LoginResult, Credentials>(() => deferred('login')),
        logout: fromPromise<void, { token: string | null }>(() => deferred('logout')),
        fetchCurrentUser: fromPromise<Profile, { token: string }>(() => deferred('fetchCurrentUser')),
      },
      actions: {
        persistToken: (_, params) => {
          cookie = params.token;
        },
        forgetToken: () => {
          cookie = null;
        },
      },
    }),
    { input },
  ).start();

  for (const step of steps) {
    const type = step.event.type;
    const outcome = /^xstate\.(done|error)\.actor\.(.+)$/.exec(type);
    const id = outcome?.[2];
    if (type === 'xstate.init') {
      // initial snapshot: nothing to send
    } else if (outcome && id) {
      expect(pending.has(id), `actor ${id} is running`).toBe(true);
      pending
        .get(id)!
        .settle(
          outcome[1] === 'done'
            ? { ok: true, value: (step.event as { output: unknown }).output }
            : { ok: false, error: (step.event as { error: unknown }).error },
        );
      pending.delete(id);
      // Every invoking state is left on done or error, which stops the child.
      await waitFor(actor, (s) => !s.children[id], { timeout: 1000 });
    } else {
      actor.send(step.event as SessionEvent);
    }
    const live = actor.getSnapshot();
    expect(live.value).toEqual(step.state.value);
    expect(live.context.token).toBe(step.state.context.token);
    expect(live.context.user).toEqual(step.state.context.user);
    expect(live.context.loginError).toBe(step.state.context.loginError);
    expect(live.context.redirectPath).toBe(step.state.context.redirectPath);
    // The cookie mirrors the session once it has been written or cleared.
    if (live.matches('loggedIn')) expect(cookie).toBe(live.context.token);
    if (live.matches('loggedOut')) expect(cookie).toBeNull();
    if (live.matches('loggedIn')) expect(live.context.user?.adminData).not.toBeNull();
  }
  actor.stop();
}

describe('session machine (model-based)', () => {
  const reached = new Set<string>();

  for (const input of inputs) {
    describe(`cookie token: ${input.token ?? 'none'}`, () => {
      const paths = getShortestPaths(sessionMachine, options(input));
      for (const path of paths) {
        const label = path.steps.map((s) => s.event.type).join(' → ');
        it(`reaches ${serializeState(path.state)} via ${label}`, async () => {
          await drive(input, path.steps as Step[]);
          reached.add(JSON.stringify(path.state.value));
        });
      }
    });
  }

  it('reaches every state node of the machine', () => {
    const all = new Set<string>();
    for (const input of inputs) {
      for (const path of getShortestPaths(sessionMachine, options(input))) {
        all.add(JSON.stringify(path.state.value));
      }
    }
    const leafNodes = getStateNodes(sessionMachine.root)
      .filter((n) => n.type === 'atomic')
      .map((n) => JSON.stringify(n.key));
    // `restoring` is transient (eventless), so no snapshot ever rests in it.
    expect([...all].sort()).toEqual(leafNodes.filter((k) => k !== '"restoring"').sort());
  });
});

describe('session machine (transition coverage)', () => {
  for (const input of inputs) {
    const adjacency = getAdjacencyMap(sessionMachine, options(input));
    const edges = adjacencyMapToArray(adjacency);
    const shortest = new Map(
      getShortestPaths(sessionMachine, options(input)).map((p) => [serializeState(p.state), p]),
    );
    const initialKey = serializeState(
      sessionMachine.resolveState(createActor(sessionMachine, { input }).getSnapshot()),
    );

    it(`has edges to exercise (cookie token: ${input.token ?? 'none'})`, () => {
      expect(edges.length).toBeGreaterThan(10);
    });

    for (const edge of edges) {
      const from = serializeState(edge.state);
      const name = `${from} --${serializeEvent(edge.event)}--> ${serializeState(edge.nextState)}`;
      it(`exercises ${name}`, async () => {
        const prefix = from === initialKey ? [] : shortest.get(from)?.steps.slice(1);
        expect(prefix, `no path to ${from}`).toBeDefined();
        const initial = { event: { type: 'xstate.init' }, state: edge.state };
        await drive(input, [
          ...(from === initialKey ? [initial] : (shortest.get(from)!.steps as Step[])),
          { event: edge.event, state: edge.nextState },
        ]);
      });
    }
  }
});

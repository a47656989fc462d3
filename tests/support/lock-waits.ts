import pg from 'pg';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { Queryable } from '../../server/db/client';

/**
 * Two-connection tests on PostgreSQL: a second connection holds a lock, a request to the API waits for
 * it, and the test sees it waiting before it lets go — polled, never slept for.
 */

/** A second connection to the database `db` is on (`serverUrl` names the server), and its backend pid. */
export async function openSecondConnection(
  db: Queryable,
  serverUrl: string,
): Promise<{ client: pg.Client; pid: number }> {
  const { rows } = await db.query<{ name: string }>('SELECT current_database() AS name');
  const url = new URL(serverUrl);
  url.pathname = `/${rows[0]!.name}`;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  const pid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
  return { client, pid };
}

/** The request in flight as status and body, and whether it has answered yet. */
export const inFlight = (response: Promise<Response>) => {
  const state = { answered: false };
  const answer = response.then(async (r) => {
    state.answered = true;
    const text = await r.text();
    return { status: r.status, body: (text ? JSON.parse(text) : null) as { code?: string } | null };
  });
  return { state, answer };
};

/**
 * The queries of the backends waiting for a lock the backend `pid` holds: up to ~10 s for the request
 * to get there, and no longer once it has answered (it then never waited).
 */
export async function lockWaiters(
  db: Queryable,
  pid: number,
  state: { answered: boolean },
): Promise<string[]> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const { rows } = await db.query<{ query: string }>(
      `SELECT query FROM pg_stat_activity WHERE $1::int = ANY(pg_blocking_pids(pid))`,
      [pid],
    );
    if (rows.length > 0 || state.answered) return rows.map((row) => row.query.trim());
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return [];
}

/**
 * For a describe block racing the API on PostgreSQL: a second connection to the database `db()` is on,
 * opened after the block's own `beforeAll` (register it after that one), rolled back after each test —
 * a test that failed half-way must not leave its lock held for the next one — and closed before the
 * block's own `afterAll` (hooks after the tests run in reverse order).
 */
export function secondConnection(db: () => Queryable, serverUrl: string | undefined) {
  let opened: { client: pg.Client; pid: number } | undefined;
  beforeAll(async () => {
    if (!serverUrl) throw new Error('a second connection needs TEST_DATABASE_URL');
    opened = await openSecondConnection(db(), serverUrl);
  }, 120_000);
  afterEach(async () => {
    await opened?.client.query('ROLLBACK');
  });
  afterAll(async () => {
    await opened?.client.end();
  });
  const client = () => {
    if (!opened) throw new Error('the second connection is not open yet');
    return opened.client;
  };
  return {
    query: <Row extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values?: unknown[]) =>
      client().query<Row>(text, values),
    get pid() {
      return opened!.pid;
    },
    /** The queries of the backends waiting for a lock this connection holds (`lockWaiters`). */
    waiters: (state: { answered: boolean }) => lockWaiters(db(), opened!.pid, state),
  };
}

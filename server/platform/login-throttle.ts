import type { Database, Queryable } from '../db/client';

export const LOGIN_MAX_FAILURES = 10;
export const ADDRESS_MAX_FAILURES = 100;
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;

// Two-key advisory locks (class, hash): their own key space, apart from the migration lock's int8 key.
// A hash collision only makes two unrelated keys wait for each other for a few milliseconds.
const EMAIL_LOCK_CLASS = 731_020_016;
const ADDRESS_LOCK_CLASS = 731_020_017;
// Each write adds one row and may remove up to this many expired ones, so the table stays small.
const PURGE_BATCH = 100;

export type Reservation =
  | { kind: 'reserved'; attemptId: number }
  | { kind: 'throttled'; retryAfterSeconds: number };

/** Seconds until the oldest of the last `limit` counted attempts leaves the window; null below the limit. */
function waitFor(rows: { attempted_at: Date }[], limit: number, now: Date): number | null {
  const oldestCounted = rows[limit - 1];
  if (!oldestCounted) return null;
  const releaseAt = new Date(oldestCounted.attempted_at).getTime() + LOGIN_WINDOW_MS;
  return Math.max(1, Math.ceil((releaseAt - now.getTime()) / 1000));
}

/**
 * Reserves one password check for this e-mail and client address, or says how long to wait.
 * Counted in the database, not in memory, so every API instance behind a load balancer sees the
 * same attempts; atomic because the count and the reservation happen under two transaction-scoped
 * advisory locks (the e-mail's, then the address's — always in that order), held for three short
 * statements and never across the password hashing. On PGlite the transaction is exclusive anyway.
 *
 * Counted: failures and unsettled reservations in the last 15 minutes — per e-mail only those after
 * its latest success (a success clears that e-mail's slate), per address all of them (signing in to
 * one account must not reset the budget for guessing others). Successes never count.
 */
export async function reserveLoginAttempt(
  db: Database,
  email: string,
  clientAddress: string,
  now: Date,
): Promise<Reservation> {
  const windowStart = new Date(now.getTime() - LOGIN_WINDOW_MS);
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [EMAIL_LOCK_CLASS, email]);
    await tx.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [ADDRESS_LOCK_CLASS, clientAddress]);
    const byEmail = await tx.query<{ attempted_at: Date }>(
      `SELECT attempted_at FROM login_attempts
        WHERE email = $1 AND succeeded IS NOT TRUE AND attempted_at > $2
          AND attempted_at > coalesce(
            (SELECT max(attempted_at) FROM login_attempts WHERE email = $1 AND succeeded), '-infinity')
        ORDER BY attempted_at DESC
        LIMIT $3`,
      [email, windowStart, LOGIN_MAX_FAILURES],
    );
    const byAddress = await tx.query<{ attempted_at: Date }>(
      `SELECT attempted_at FROM login_attempts
        WHERE client_address = $1 AND succeeded IS NOT TRUE AND attempted_at > $2
        ORDER BY attempted_at DESC
        LIMIT $3`,
      [clientAddress, windowStart, ADDRESS_MAX_FAILURES],
    );
    const waits = [
      waitFor(byEmail.rows, LOGIN_MAX_FAILURES, now),
      waitFor(byAddress.rows, ADDRESS_MAX_FAILURES, now),
    ].filter((wait) => wait !== null);
    // Throttled requests are not recorded: no password was tried (docs/decisions/0016).
    if (waits.length > 0) return { kind: 'throttled', retryAfterSeconds: Math.max(...waits) };
    const { rows } = await tx.query<{ id: number }>(
      `INSERT INTO login_attempts (email, client_address, succeeded, attempted_at)
       VALUES ($1, $2, NULL, $3) RETURNING id`,
      [email, clientAddress, now],
    );
    return { kind: 'reserved', attemptId: rows[0]!.id };
  });
}

/**
 * Settles a reservation: a failure keeps counting; a success stops counting (it releases its
 * reservation) and clears the e-mail's earlier failures.
 */
export async function settleLoginAttempt(
  db: Queryable,
  attemptId: number,
  succeeded: boolean,
): Promise<void> {
  await db.query('UPDATE login_attempts SET succeeded = $2 WHERE id = $1', [attemptId, succeeded]);
}

/**
 * Rows older than the window are never read again. A bounded batch per write, skipping rows another
 * instance is deleting at the same moment, so purging never waits and never grows with the table.
 */
export async function purgeExpiredLoginAttempts(db: Queryable, now: Date): Promise<void> {
  await db.query(
    `DELETE FROM login_attempts WHERE id IN (
       SELECT id FROM login_attempts WHERE attempted_at < $1
        ORDER BY attempted_at LIMIT $2 FOR UPDATE SKIP LOCKED)`,
    [new Date(now.getTime() - LOGIN_WINDOW_MS), PURGE_BATCH],
  );
}

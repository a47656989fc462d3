import type { Queryable } from '../db/client';

export const LOGIN_MAX_FAILURES = 10;
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;

/**
 * Counted in the database, not in memory, so every API instance behind a load balancer sees the
 * same failures. A success clears the slate: only failures after the last success count.
 * Returns the seconds to wait, or null when the e-mail may try again.
 */
export async function loginRetryAfterSeconds(
  db: Queryable,
  email: string,
  now: Date,
): Promise<number | null> {
  const { rows } = await db.query<{ attempted_at: Date }>(
    `SELECT attempted_at FROM login_attempts
      WHERE email = $1 AND NOT succeeded AND attempted_at > $2
        AND attempted_at > coalesce(
          (SELECT max(attempted_at) FROM login_attempts WHERE email = $1 AND succeeded), '-infinity')
      ORDER BY attempted_at DESC
      LIMIT $3`,
    [email, new Date(now.getTime() - LOGIN_WINDOW_MS), LOGIN_MAX_FAILURES],
  );
  const oldestCounted = rows[LOGIN_MAX_FAILURES - 1];
  if (!oldestCounted) return null;
  // Once the oldest of the last ten failures leaves the window, fewer than ten remain.
  const releaseAt = new Date(oldestCounted.attempted_at).getTime() + LOGIN_WINDOW_MS;
  return Math.max(1, Math.ceil((releaseAt - now.getTime()) / 1000));
}

export async function recordLoginAttempt(db: Queryable, email: string, succeeded: boolean, now: Date) {
  await db.query('INSERT INTO login_attempts (email, succeeded, attempted_at) VALUES ($1, $2, $3)', [
    email,
    succeeded,
    now,
  ]);
}

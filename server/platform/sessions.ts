import { createHash, randomBytes } from 'node:crypto';
import type { Queryable } from '../db/client';

/** How long a session lives (server/config.ts reads them from the environment; docs/decisions/0126). */
export interface SessionPolicy {
  /** Ends after this long without a request. */
  idleMs: number;
  /** Ends this long after sign-in, however busy. */
  lifetimeMs: number;
}

export const DEFAULT_SESSION_POLICY: SessionPolicy = {
  idleMs: 8 * 60 * 60 * 1000,
  lifetimeMs: 7 * 24 * 60 * 60 * 1000,
};

/**
 * A session's last request is written at most this often, so a screen's burst of reads costs one
 * write, not one each; the idle timeout is exact to within this.
 */
const LAST_SEEN_GRANULARITY_MS = 60 * 1000;

export interface SessionUser {
  sessionId: string;
  userId: string;
  isAdmin: boolean;
}

/** Only the hash is stored, so a copy of the sessions table cannot be replayed as tokens. */
export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

export async function createSession(
  db: Queryable,
  userId: string,
  now: Date,
  lifetimeMs = DEFAULT_SESSION_POLICY.lifetimeMs,
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.query(
    `INSERT INTO sessions (user_id, token_hash, created_at, last_seen_at, expires_at)
     VALUES ($1, $2, $3, $3, $4)`,
    [userId, hashToken(token), now, new Date(now.getTime() + lifetimeMs)],
  );
  return token;
}

/**
 * A token is good while unrevoked, its user is not disabled, it was used within the idle time and
 * issued within the lifetime. Both limits are the policy's now, not the one it was issued under, so
 * lowering them applies to every session at once. A good token's use is recorded as its last request.
 */
export async function findSession(
  db: Queryable,
  token: string,
  now: Date,
  policy: SessionPolicy = DEFAULT_SESSION_POLICY,
): Promise<SessionUser | null> {
  const { rows } = await db.query<{
    session_id: string;
    user_id: string;
    is_admin: boolean;
    last_seen_at: Date;
  }>(
    `SELECT s.id AS session_id, u.id AS user_id, u.admin_data IS NOT NULL AS is_admin, s.last_seen_at
       FROM sessions s JOIN users u ON u.id = s.user_id
      WHERE s.token_hash = $1 AND s.revoked_at IS NULL AND NOT u.disabled
        AND s.created_at > $2 AND s.last_seen_at > $3`,
    [hashToken(token), new Date(now.getTime() - policy.lifetimeMs), new Date(now.getTime() - policy.idleMs)],
  );
  const row = rows[0];
  if (!row) return null;
  if (now.getTime() - new Date(row.last_seen_at).getTime() >= LAST_SEEN_GRANULARITY_MS)
    await db.query('UPDATE sessions SET last_seen_at = $2 WHERE id = $1 AND last_seen_at < $2', [
      row.session_id,
      now,
    ]);
  return { sessionId: row.session_id, userId: row.user_id, isAdmin: row.is_admin };
}

export async function revokeSession(db: Queryable, sessionId: string, now: Date): Promise<void> {
  await db.query('UPDATE sessions SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL', [
    sessionId,
    now,
  ]);
}

import { createHash, randomBytes } from 'node:crypto';
import type { Queryable } from '../db/client';

export const SESSION_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;

export interface SessionUser {
  sessionId: string;
  userId: string;
  isAdmin: boolean;
}

/** Only the hash is stored, so a copy of the sessions table cannot be replayed as tokens. */
export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

export async function createSession(db: Queryable, userId: string, now: Date): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.query(
    'INSERT INTO sessions (user_id, token_hash, created_at, expires_at) VALUES ($1, $2, $3, $4)',
    [userId, hashToken(token), now, new Date(now.getTime() + SESSION_LIFETIME_MS)],
  );
  return token;
}

/** A token is good while unexpired, unrevoked and its user is not disabled. */
export async function findSession(db: Queryable, token: string, now: Date): Promise<SessionUser | null> {
  const { rows } = await db.query<{ session_id: string; user_id: string; is_admin: boolean }>(
    `SELECT s.id AS session_id, u.id AS user_id, u.admin_data IS NOT NULL AS is_admin
       FROM sessions s JOIN users u ON u.id = s.user_id
      WHERE s.token_hash = $1 AND s.revoked_at IS NULL AND s.expires_at > $2 AND NOT u.disabled`,
    [hashToken(token), now],
  );
  const row = rows[0];
  return row ? { sessionId: row.session_id, userId: row.user_id, isAdmin: row.is_admin } : null;
}

export async function revokeSession(db: Queryable, sessionId: string, now: Date): Promise<void> {
  await db.query('UPDATE sessions SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL', [
    sessionId,
    now,
  ]);
}

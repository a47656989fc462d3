import { randomBytes } from 'node:crypto';
import type { Database } from '../db/client';
import { purgeExpiredLoginAttempts, reserveLoginAttempt, settleLoginAttempt } from './login-throttle';
import { mutation } from './mutation';
import { hashPassword, verifyPassword } from './passwords';
import { createSession, revokeSession, type SessionPolicy, type SessionUser } from './sessions';

export type LoginResult =
  | { kind: 'signed-in'; token: string; userId: string }
  | { kind: 'invalid' }
  | { kind: 'throttled'; retryAfterSeconds: number };

// Unknown e-mails are checked against this hash so they cost as much as known ones.
let dummyHash: Promise<string> | undefined;
const getDummyHash = () => {
  dummyHash ??= hashPassword(randomBytes(24).toString('base64'));
  return dummyHash;
};

/**
 * Only administrators (users with admin data) who are not disabled may sign in. Everyone else gets
 * the same answer as a wrong password, after the same work, so the answer reveals nothing.
 * `clientAddress` is the socket's address, or the one a trusted proxy forwarded (server/http/client-address.ts, server/platform/client-addresses.ts).
 */
export async function login(
  db: Database,
  email: string,
  password: string,
  clientAddress: string,
  now: Date,
  policy: SessionPolicy,
): Promise<LoginResult> {
  // Reserved before the password is checked, so however many requests arrive at once, at most ten
  // passwords per e-mail (and a hundred per address) are tried in 15 minutes.
  const reservation = await reserveLoginAttempt(db, email, clientAddress, now);
  if (reservation.kind === 'throttled')
    return { kind: 'throttled', retryAfterSeconds: reservation.retryAfterSeconds };
  // Should anything below throw, the reservation stays unsettled and counts as a failure until it
  // leaves the window: the safe side.

  const { rows } = await db.query<{ id: string; password_hash: string | null; allowed: boolean }>(
    `SELECT id, password_hash, admin_data IS NOT NULL AND NOT disabled AS allowed
       FROM users WHERE lower(email) = $1`,
    [email],
  );
  const user = rows[0];
  const passwordMatches = await verifyPassword(password, user?.password_hash ?? (await getDummyHash()));
  if (!user?.allowed || !passwordMatches) {
    await settleLoginAttempt(db, reservation.attemptId, false);
    await purgeExpiredLoginAttempts(db, now);
    return { kind: 'invalid' };
  }

  const actor = { userId: user.id, at: now };
  const token = await mutation(db, actor, { action: 'user.login', entityType: 'user' }, async (tx) => {
    await settleLoginAttempt(tx, reservation.attemptId, true);
    const issued = await createSession(tx, user.id, now, policy.lifetimeMs);
    await tx.query('UPDATE users SET last_active_at = $2 WHERE id = $1', [user.id, now]);
    return { result: issued, entityId: user.id };
  });
  await purgeExpiredLoginAttempts(db, now);
  return { kind: 'signed-in', token, userId: user.id };
}

export async function logout(db: Database, session: SessionUser, now: Date): Promise<void> {
  const actor = { userId: session.userId, at: now };
  await mutation(db, actor, { action: 'user.logout', entityType: 'session' }, async (tx) => {
    await revokeSession(tx, session.sessionId, now);
    return { result: undefined, entityId: session.sessionId };
  });
}

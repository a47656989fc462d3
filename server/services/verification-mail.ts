import { randomBytes } from 'node:crypto';
import type { Database } from '../db/client';
import { ApiError } from '../http/errors';
import type { Mailer } from '../mail/mailer';
import { type MailLocale, VERIFICATION_LINK_HOURS, verificationMail } from '../mail/verification-template';
import { recordAudit } from './audit';
import { hashToken } from './sessions';
import { type Actor, lockUser } from './users-transitions';

export interface ResendResult {
  sentTo: string;
}

/**
 * DESIGN §6: only for `NEW_USER`. The link carries a fresh random token (only its hash is stored) and
 * revokes the earlier ones, so only the newest e-mail works. The audit record is written once the
 * message has really left; a failed send revokes the token and changes nothing else.
 */
export async function resendVerificationEmail(
  db: Database,
  mailer: Mailer,
  actor: Actor,
  id: string,
  /** `PUBLIC_URL` (DESIGN §5), never the request's Host. */
  linkBase: string,
): Promise<ResendResult> {
  const token = randomBytes(32).toString('base64url');
  const user = await db.transaction(async (tx) => {
    const row = await lockUser(tx, id);
    if (row.status !== 'NEW_USER') throw new ApiError(409, 'USER_NOT_NEW');
    await tx.query(
      `UPDATE email_verification_tokens SET revoked_at = $2
        WHERE user_id = $1 AND used_at IS NULL AND revoked_at IS NULL`,
      [id, actor.at],
    );
    await tx.query(
      `INSERT INTO email_verification_tokens (user_id, token_hash, created_at, expires_at) VALUES ($1, $2, $3, $4)`,
      [id, hashToken(token), actor.at, new Date(actor.at.getTime() + VERIFICATION_LINK_HOURS * 3_600_000)],
    );
    return row;
  });
  const link = `${linkBase}/verify-email?token=${token}`;
  try {
    await mailer.send(verificationMail(user.email, user.name, user.locale as MailLocale, link));
  } catch (error) {
    console.error(`verification e-mail to user ${id} failed:`, error);
    await db.query('UPDATE email_verification_tokens SET revoked_at = $2 WHERE token_hash = $1', [
      hashToken(token),
      actor.at,
    ]);
    throw new ApiError(502, 'MAIL_NOT_SENT');
  }
  await recordAudit(db, {
    actorId: actor.userId,
    action: 'user.resend-verification-email',
    entityType: 'user',
    entityId: id,
    before: { status: user.status },
    after: { status: user.status, sentTo: user.email, locale: user.locale },
    at: actor.at,
  });
  return { sentTo: user.email };
}

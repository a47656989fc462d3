import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import type { resendVerificationResultSchema } from '../../contract/users';
import type { Database } from '../db/client';
import { describeError } from '../platform/describe-error';
import type { Mailer } from '../platform/mail/mailer';
import {
  type MailLocale,
  VERIFICATION_LINK_HOURS,
  verificationMail,
} from '../platform/mail/verification-template';
import { type Actor, type AuditSubject, mutation } from '../platform/mutation';
import { refuse } from '../platform/refusal';
import { hashToken } from '../platform/sessions';
import { lockUser } from './transitions';

export type ResendResult = z.infer<typeof resendVerificationResultSchema>;

/**
 * DESIGN §6: only for `NEW_USER`. The link carries a fresh random token (only its hash is stored) and
 * revokes the earlier ones, so only the newest e-mail works. The audit record is written once the
 * message has really left (through `mutation`, like every other change); a failed send revokes the
 * token and changes nothing else. The token's own transaction is the preparation of that change.
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
    if (row.status !== 'NEW_USER') throw refuse('USER_NOT_NEW');
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
    // The mail server's answer names the recipient: the log gets the error's class and code only.
    console.error(
      `verification e-mail to user ${id} failed: ${describeError(error, { withMessage: false })}`,
    );
    await db.query('UPDATE email_verification_tokens SET revoked_at = $2 WHERE token_hash = $1', [
      hashToken(token),
      actor.at,
    ]);
    throw refuse('MAIL_NOT_SENT');
  }
  const audit: AuditSubject = { action: 'user.resend-verification-email', entityType: 'user' };
  return mutation(db, actor, audit, async () => ({
    result: { sentTo: user.email },
    entityId: id,
    before: { status: user.status },
    after: { status: user.status, sentTo: user.email, locale: user.locale },
  }));
}

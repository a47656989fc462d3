import type { Database, Queryable } from '../db/client';
import { ApiError } from '../http/errors';
import { recordAudit } from './audit';
import { userNotFound } from './users-detail';
import { areasOf } from './users-search';
import { SUMMARY_COLUMNS, type SummaryRow, toUserSummary, type UserSummary } from './users-summary';

/** The row, locked until the transaction ends: two admins acting at once are serialised, not merged. */
export async function lockUser(tx: Queryable, id: string): Promise<SummaryRow> {
  const { rows } = await tx.query<SummaryRow>(
    `SELECT ${SUMMARY_COLUMNS} FROM users u WHERE u.id = $1 FOR UPDATE`,
    [id],
  );
  if (!rows[0]) throw userNotFound();
  return rows[0];
}

async function summaryOf(tx: Queryable, id: string): Promise<UserSummary> {
  const { rows } = await tx.query<SummaryRow>(`SELECT ${SUMMARY_COLUMNS} FROM users u WHERE u.id = $1`, [id]);
  const row = rows[0]!;
  const areas = row.role === 'PROFESSIONAL' ? await areasOf(tx, [id]) : new Map();
  return toUserSummary(row, areas.get(id) ?? []);
}

export interface Actor {
  userId: string;
  at: Date;
}

/** Disabling also revokes every session of the user; enabling restores the derived status (DESIGN §6). */
export function setDisabled(db: Database, actor: Actor, id: string, disabled: boolean): Promise<UserSummary> {
  return db.transaction(async (tx) => {
    const user = await lockUser(tx, id);
    if (disabled && id === actor.userId) throw new ApiError(409, 'CANNOT_DISABLE_SELF');
    if (user.disabled === disabled)
      throw new ApiError(409, disabled ? 'USER_ALREADY_DISABLED' : 'USER_NOT_DISABLED');
    await tx.query('UPDATE users SET disabled = $2 WHERE id = $1', [id, disabled]);
    if (disabled)
      await tx.query('UPDATE sessions SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL', [
        id,
        actor.at,
      ]);
    const after = await summaryOf(tx, id);
    await recordAudit(tx, {
      actorId: actor.userId,
      action: disabled ? 'user.disable' : 'user.enable',
      entityType: 'user',
      entityId: id,
      before: { disabled: user.disabled, status: user.status },
      after: { disabled: after.userDisabled, status: after.status },
      at: actor.at,
    });
    return after;
  });
}

/** DESIGN §6: only professionals whose e-mail is verified and who are not yet verified. */
export function verifyProfessional(db: Database, actor: Actor, id: string): Promise<UserSummary> {
  return db.transaction(async (tx) => {
    const user = await lockUser(tx, id);
    if (user.role !== 'PROFESSIONAL') throw new ApiError(409, 'NOT_A_PROFESSIONAL');
    if (user.status !== 'EMAIL_VERIFIED') throw new ApiError(409, 'PROFESSIONAL_NOT_AWAITING_VERIFICATION');
    await tx.query('UPDATE users SET professional_verified = true WHERE id = $1', [id]);
    const after = await summaryOf(tx, id);
    await recordAudit(tx, {
      actorId: actor.userId,
      action: 'professional.verify',
      entityType: 'user',
      entityId: id,
      before: { status: user.status },
      after: { status: after.status },
      at: actor.at,
    });
    return after;
  });
}

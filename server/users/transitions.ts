import type { Database, Queryable } from '../db/client';
import { type Actor, type AuditSubject, mutation } from '../platform/mutation';
import { refuse } from '../platform/refusal';
import { userNotFound } from './detail';
import { areasOf, SUMMARY_COLUMNS, type SummaryRow, toUserSummary, type UserSummary } from './summary';

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

/** Disabling also revokes every session of the user; enabling restores the derived status (DESIGN §6). */
export function setDisabled(db: Database, actor: Actor, id: string, disabled: boolean): Promise<UserSummary> {
  const audit: AuditSubject = { action: disabled ? 'user.disable' : 'user.enable', entityType: 'user' };
  return mutation(db, actor, audit, async (tx) => {
    const user = await lockUser(tx, id);
    if (disabled && id === actor.userId) throw refuse('CANNOT_DISABLE_SELF');
    if (user.disabled === disabled) throw refuse(disabled ? 'USER_ALREADY_DISABLED' : 'USER_NOT_DISABLED');
    await tx.query('UPDATE users SET disabled = $2 WHERE id = $1', [id, disabled]);
    if (disabled)
      await tx.query('UPDATE sessions SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL', [
        id,
        actor.at,
      ]);
    const after = await summaryOf(tx, id);
    return {
      result: after,
      entityId: id,
      before: { disabled: user.disabled, status: user.status },
      after: { disabled: after.userDisabled, status: after.status },
    };
  });
}

/** DESIGN §6: only professionals whose e-mail is verified and who are not yet verified. */
export function verifyProfessional(db: Database, actor: Actor, id: string): Promise<UserSummary> {
  return mutation(db, actor, { action: 'professional.verify', entityType: 'user' }, async (tx) => {
    const user = await lockUser(tx, id);
    if (user.role !== 'PROFESSIONAL') throw refuse('NOT_A_PROFESSIONAL');
    if (user.status !== 'EMAIL_VERIFIED') throw refuse('PROFESSIONAL_NOT_AWAITING_VERIFICATION');
    await tx.query('UPDATE users SET professional_verified = true WHERE id = $1', [id]);
    const after = await summaryOf(tx, id);
    return { result: after, entityId: id, before: { status: user.status }, after: { status: after.status } };
  });
}

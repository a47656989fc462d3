import type { AuditAction, AuditEntityType } from '../../contract/statuses';
import type { Database, Queryable } from '../db/client';
import { recordAudit } from './audit';

/** Who changes something, and when (the request's clock). */
export interface Actor {
  userId: string;
  at: Date;
}

/** What the audit record says about the change besides who and when. */
export interface AuditSubject {
  action: AuditAction;
  entityType: AuditEntityType;
}

/** What a change's work answers: its result, and the entity and before → after the audit records. */
export interface Change<T> {
  result: T;
  entityId: string;
  before?: unknown;
  after?: unknown;
}

/**
 * Every mutation of the API runs through here: `work` makes the change inside one transaction and
 * answers what it changed, and the audit record is written in that same transaction — so a change
 * without its audit row cannot commit, and an audit row of a change that rolled back cannot exist.
 * A refusal thrown by `work` rolls both back.
 */
export function mutation<T>(
  db: Database,
  actor: Actor,
  audit: AuditSubject,
  work: (tx: Queryable) => Promise<Change<T>>,
): Promise<T> {
  return db.transaction(async (tx) => {
    const change = await work(tx);
    await recordAudit(tx, {
      actorId: actor.userId,
      action: audit.action,
      entityType: audit.entityType,
      entityId: change.entityId,
      before: change.before,
      after: change.after,
      at: actor.at,
    });
    return change.result;
  });
}

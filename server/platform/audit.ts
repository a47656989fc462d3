import type { AuditAction, AuditEntityType } from '../../contract/statuses';
import type { Queryable } from '../db/client';

export interface AuditEntry {
  actorId: string | null;
  /** Typed, so a code the console cannot translate does not compile (tests/unit/audit-actions.test.ts). */
  action: AuditAction;
  entityType: AuditEntityType;
  entityId: string;
  before?: unknown;
  after?: unknown;
  at: Date;
}

export async function recordAudit(db: Queryable, entry: AuditEntry): Promise<void> {
  await db.query(
    `INSERT INTO audit_log (actor_id, action, entity_type, entity_id, before, after, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [
      entry.actorId,
      entry.action,
      entry.entityType,
      entry.entityId,
      entry.before === undefined ? null : JSON.stringify(entry.before),
      entry.after === undefined ? null : JSON.stringify(entry.after),
      entry.at,
    ],
  );
}

import type { z } from 'zod';
import type { auditListQuerySchema, auditLogItemSchema } from '../../contract/audit';
import type { Queryable } from '../db/client';
import { dateRange, estimatedPage, type KeysetQuery, oneOf, SqlParams } from '../db/list';

export type AuditListQuery = z.output<typeof auditListQuerySchema>;
export type AuditLogItem = z.infer<typeof auditLogItemSchema>;

/** Counted exactly up to here; beyond, the planner's estimate (the log grows by millions). */
const EXACT_TOTAL_LIMIT = 10_000;
/** Newest first is the only order: cursors are bound to it. */
const BOUND = { sort: 'at', order: 'desc' } as const;
const FROM = 'FROM audit_log a';

interface AuditRow {
  id: string;
  created_at: Date | string;
  actor_id: string | null;
  actor_name: string | null;
  action: string;
  entity_type: string;
  entity_id: string;
  before: unknown;
  after: unknown;
}

function auditFilters(params: SqlParams, query: AuditListQuery): string[] {
  const where: string[] = [];
  if (query.actorId) where.push(`a.actor_id = ${params.add(query.actorId)}::uuid`);
  where.push(...oneOf(params, 'a.action', query.action));
  if (query.entityType && query.entityId !== undefined) {
    // One entity's history: its own rows and the batch rows that name it (a SEPA file's moves of its
    // settlements: `audit_log_entities`, migration 0021, or the claim's links, migration 0025), each
    // set read from its indexes.
    const type = params.add(query.entityType);
    const id = params.add(query.entityId);
    where.push(`a.id IN (SELECT e.id FROM audit_log e WHERE e.entity_type = ${type} AND e.entity_id = ${id}
                         UNION ALL
                         SELECT n FROM audit_ids_naming(${type}, ${id}) n)`);
  } else if (query.entityType) where.push(`a.entity_type = ${params.add(query.entityType)}`);
  where.push(...dateRange(params, 'a.created_at', query.from, query.to));
  return where;
}

/**
 * `GET /v2/admin/audit`: the audit log newest first, keyset pages on (created_at, id) through the list
 * engine, each filter served by its own index (migration 0020), the total exact up to 10,000.
 */
export async function listAuditLog(db: Queryable, query: AuditListQuery) {
  const params = new SqlParams();
  const where = auditFilters(params, query);
  const keyset: KeysetQuery = {
    select: `a.id::text AS id, a.created_at, a.actor_id, actor.name AS actor_name, a.action, a.entity_type,
             a.entity_id, a.before, a.after`,
    from: `${FROM} LEFT JOIN users actor ON actor.id = a.actor_id`,
    where,
    params,
    sort: { sql: 'a.created_at', type: 'timestamptz' },
    id: 'a.id',
    idType: 'bigint',
    order: 'desc',
  };
  const { rows, nextCursor, ...total } = await estimatedPage<AuditRow>(
    db,
    keyset,
    { ...BOUND, cursor: query.cursor, limit: query.limit },
    FROM,
    EXACT_TOTAL_LIMIT,
  );
  const labels = await entityLabels(db, rows);
  return {
    items: rows.map(
      (row): AuditLogItem => ({
        id: row.id,
        at: new Date(row.created_at).toISOString(),
        actor: row.actor_id === null ? null : { id: row.actor_id, name: row.actor_name ?? '' },
        action: row.action,
        entityType: row.entity_type,
        entityId: row.entity_id,
        entityLabel: labels.get(`${row.entity_type}:${row.entity_id}`) ?? null,
        before: row.before,
        after: row.after,
      }),
    ),
    nextCursor,
    ...total,
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Names for the page's entities where a primary-key lookup finds one: a user's name, a case's
 * "patient → doctor", an area's name. One query per type for the whole page, never per row.
 */
async function entityLabels(db: Queryable, rows: readonly AuditRow[]): Promise<Map<string, string>> {
  const idsOf = (type: string) => [
    ...new Set(rows.filter((r) => r.entity_type === type && UUID.test(r.entity_id)).map((r) => r.entity_id)),
  ];
  const labels = new Map<string, string>();
  const lookups: [string, string][] = [
    ['user', 'SELECT id::text AS id, name AS label FROM users WHERE id = ANY($1::uuid[])'],
    [
      'case',
      `SELECT c.id::text AS id, cu.name || ' → ' || pr.name AS label
         FROM cases c JOIN users cu ON cu.id = c.customer_id JOIN users pr ON pr.id = c.professional_id
        WHERE c.id = ANY($1::uuid[])`,
    ],
    ['interest_area', 'SELECT id::text AS id, name AS label FROM interest_areas WHERE id = ANY($1::uuid[])'],
  ];
  for (const [type, sql] of lookups) {
    const ids = idsOf(type);
    if (ids.length === 0) continue;
    const { rows: found } = await db.query<{ id: string; label: string }>(sql, [ids]);
    for (const row of found) labels.set(`${type}:${row.id}`, row.label);
  }
  return labels;
}

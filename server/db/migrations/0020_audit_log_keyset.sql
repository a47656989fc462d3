-- The audit log as a list (GET /v2/admin/audit): newest first, keyset on (created_at, id), alone or
-- narrowed to one actor, one action, one entity type or one entity. Each index serves one filter in
-- the list's order, so a page reads its rows from the index end instead of sorting the whole log.
CREATE INDEX audit_log_created_idx ON audit_log (created_at, id);
CREATE INDEX audit_log_actor_idx ON audit_log (actor_id, created_at, id);
CREATE INDEX audit_log_action_idx ON audit_log (action, created_at, id);
CREATE INDEX audit_log_entity_type_idx ON audit_log (entity_type, created_at, id);
-- The entity index gains the tie-breaker, so one entity's history pages in order too.
DROP INDEX audit_log_entity_idx;
CREATE INDEX audit_log_entity_idx ON audit_log (entity_type, entity_id, created_at, id);

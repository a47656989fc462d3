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

-- The home dashboard's trends, pre-aggregated (docs/decisions/0078): at a million users and cases,
-- grouping the last 90 days of cases, 12 months of settlements and 26 weeks of sign-ups on every request
-- read 130,000–170,000 rows each (2–3 s p95 on the shared machine). These small tables hold the counts
-- per Lisbon day (or reference month) and are kept exact by statement-level triggers in the same
-- transaction as the change, so the dashboard reads a few hundred rows and is never stale.

CREATE TABLE dashboard_case_days (
  day date NOT NULL,
  status text NOT NULL,
  cases integer NOT NULL,
  PRIMARY KEY (day, status)
);

CREATE TABLE dashboard_settlement_months (
  reference_month text NOT NULL,
  status text NOT NULL,
  settlements integer NOT NULL,
  fee_cents bigint NOT NULL,
  net_cents bigint NOT NULL,
  payable_cents bigint NOT NULL,
  PRIMARY KEY (reference_month, status)
);

CREATE TABLE dashboard_signup_days (
  day date NOT NULL,
  role text NOT NULL,
  users integer NOT NULL,
  PRIMARY KEY (day, role)
);

-- Each trigger adds the rows a statement inserted (`added`) and subtracts those it removed (`removed`);
-- an UPDATE does both, so only what moved between days, statuses or months changes a count.
-- Counts per Lisbon day of `created_at` and one key column: the cases' status, the users' role. The
-- trigger's arguments name the count table, its key column and its count column.
CREATE FUNCTION dashboard_day_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  moved text := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT created_at, %2$I, 1 AS delta FROM added'
    WHEN 'DELETE' THEN 'SELECT created_at, %2$I, -1 AS delta FROM removed'
    ELSE 'SELECT created_at, %2$I, 1 AS delta FROM added UNION ALL SELECT created_at, %2$I, -1 FROM removed'
  END;
BEGIN
  -- Most updates (last activity, messages counted) move nothing: the HAVING writes no row for them.
  EXECUTE format(
    'INSERT INTO %1$I AS d (day, %2$I, %3$I)
     SELECT (created_at AT TIME ZONE ''Europe/Lisbon'')::date, %2$I, sum(delta) FROM (' || moved || ') m
      GROUP BY 1, 2 HAVING sum(delta) <> 0
     ON CONFLICT (day, %2$I) DO UPDATE SET %3$I = d.%3$I + EXCLUDED.%3$I',
    TG_ARGV[0], TG_ARGV[1], TG_ARGV[2]);
  RETURN NULL;
END;
$$;
CREATE TRIGGER dashboard_case_days_on_insert AFTER INSERT ON cases REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION dashboard_day_counts_apply('dashboard_case_days', 'status', 'cases');
CREATE TRIGGER dashboard_case_days_on_update AFTER UPDATE ON cases REFERENCING OLD TABLE AS removed NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION dashboard_day_counts_apply('dashboard_case_days', 'status', 'cases');
CREATE TRIGGER dashboard_case_days_on_delete AFTER DELETE ON cases REFERENCING OLD TABLE AS removed
  FOR EACH STATEMENT EXECUTE FUNCTION dashboard_day_counts_apply('dashboard_case_days', 'status', 'cases');
CREATE TRIGGER dashboard_signup_days_on_insert AFTER INSERT ON users REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION dashboard_day_counts_apply('dashboard_signup_days', 'role', 'users');
CREATE TRIGGER dashboard_signup_days_on_update AFTER UPDATE ON users REFERENCING OLD TABLE AS removed NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION dashboard_day_counts_apply('dashboard_signup_days', 'role', 'users');
CREATE TRIGGER dashboard_signup_days_on_delete AFTER DELETE ON users REFERENCING OLD TABLE AS removed
  FOR EACH STATEMENT EXECUTE FUNCTION dashboard_day_counts_apply('dashboard_signup_days', 'role', 'users');

CREATE FUNCTION dashboard_settlement_months_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO dashboard_settlement_months AS m (reference_month, status, settlements, fee_cents, net_cents, payable_cents)
    SELECT reference_month, status, count(*), sum(fee_cents), sum(net_cents), sum(coalesce(adjusted_cents, net_cents))
      FROM added GROUP BY 1, 2
    ON CONFLICT (reference_month, status) DO UPDATE SET settlements = m.settlements + EXCLUDED.settlements,
      fee_cents = m.fee_cents + EXCLUDED.fee_cents, net_cents = m.net_cents + EXCLUDED.net_cents,
      payable_cents = m.payable_cents + EXCLUDED.payable_cents;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO dashboard_settlement_months AS m (reference_month, status, settlements, fee_cents, net_cents, payable_cents)
    SELECT reference_month, status, -count(*), -sum(fee_cents), -sum(net_cents), -sum(coalesce(adjusted_cents, net_cents))
      FROM removed GROUP BY 1, 2
    ON CONFLICT (reference_month, status) DO UPDATE SET settlements = m.settlements + EXCLUDED.settlements,
      fee_cents = m.fee_cents + EXCLUDED.fee_cents, net_cents = m.net_cents + EXCLUDED.net_cents,
      payable_cents = m.payable_cents + EXCLUDED.payable_cents;
  ELSE
    INSERT INTO dashboard_settlement_months AS m (reference_month, status, settlements, fee_cents, net_cents, payable_cents)
    SELECT reference_month, status, sum(n), sum(fee), sum(net), sum(payable) FROM (
      SELECT reference_month, status, 1 AS n, fee_cents AS fee, net_cents AS net, coalesce(adjusted_cents, net_cents) AS payable FROM added
      UNION ALL
      SELECT reference_month, status, -1, -fee_cents, -net_cents, -coalesce(adjusted_cents, net_cents) FROM removed
    ) moved GROUP BY 1, 2 HAVING sum(n) <> 0 OR sum(fee) <> 0 OR sum(net) <> 0 OR sum(payable) <> 0
    ON CONFLICT (reference_month, status) DO UPDATE SET settlements = m.settlements + EXCLUDED.settlements,
      fee_cents = m.fee_cents + EXCLUDED.fee_cents, net_cents = m.net_cents + EXCLUDED.net_cents,
      payable_cents = m.payable_cents + EXCLUDED.payable_cents;
  END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER dashboard_settlement_months_on_insert AFTER INSERT ON settlements
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION dashboard_settlement_months_apply();
CREATE TRIGGER dashboard_settlement_months_on_update AFTER UPDATE ON settlements
  REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION dashboard_settlement_months_apply();
CREATE TRIGGER dashboard_settlement_months_on_delete AFTER DELETE ON settlements
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION dashboard_settlement_months_apply();

-- What already exists when the migration runs.
INSERT INTO dashboard_case_days (day, status, cases)
SELECT (created_at AT TIME ZONE 'Europe/Lisbon')::date, status, count(*) FROM cases GROUP BY 1, 2;
INSERT INTO dashboard_settlement_months (reference_month, status, settlements, fee_cents, net_cents, payable_cents)
SELECT reference_month, status, count(*), sum(fee_cents), sum(net_cents), sum(coalesce(adjusted_cents, net_cents))
  FROM settlements GROUP BY 1, 2;
INSERT INTO dashboard_signup_days (day, role, users)
SELECT (created_at AT TIME ZONE 'Europe/Lisbon')::date, role, count(*) FROM users GROUP BY 1, 2;

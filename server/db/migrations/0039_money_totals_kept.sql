-- The money lists' totals kept exact by triggers (docs/decisions/0138), like migration 0020's dashboard
-- tables (decision 0078): at 1,000,000 rows, "SEPA to process" summed a month's 100,000 SETTLED
-- settlements per doctor on every call (twice), "cases to process" a month's 100,000 waiting ones, and
-- the dashboard counted and summed 660,000 unmatched statement lines. Each table below holds those sums
-- and is changed by a statement-level trigger in the same transaction as the rows it counts, so a read
-- is never stale and never an estimate: the money stays exact.

-- Per doctor and reference month, the settlements of one stage with the amounts the screens show:
-- TO_PROCESS (READY_TO_SETTLE or AVAILABLE: "cases to process") and WAITING_FOR_FILE (stored SETTLED
-- with no live SEPA link: "SEPA to process"). A doctor-month whose count falls to 0 is removed, so a
-- read meets only doctor-months that have something. The doctor's name is kept beside (a trigger on
-- users follows a rename): "cases to process" pages by month and name, and reads its page from the
-- index below instead of looking up every doctor of the month to sort them.
CREATE TABLE settlement_doctor_months (
  stage text NOT NULL CHECK (stage IN ('TO_PROCESS', 'WAITING_FOR_FILE')),
  reference_month text NOT NULL,
  professional_id uuid NOT NULL,
  professional_name text NOT NULL,
  settlements integer NOT NULL,
  cases integer NOT NULL,
  gross_cents bigint NOT NULL,
  fee_cents bigint NOT NULL,
  net_cents bigint NOT NULL,
  payable_cents bigint NOT NULL,
  PRIMARY KEY (stage, reference_month, professional_id)
);
CREATE INDEX settlement_doctor_months_page_idx
  ON settlement_doctor_months (stage, reference_month DESC, professional_name, professional_id);

-- One function for both tables that move a doctor-month. `moved` yields, per settlement that entered
-- (sign 1) or left (sign -1) a stage, its stage and the settlement's columns:
--  * on settlements, the rows a statement wrote (`added`) and those it replaced or removed (`removed`),
--    each in the stage its status and live link give (the link is the same for both: this statement
--    changed no link);
--  * on sepa_transaction_settlements, the settlements whose live link came or went: the unique
--    `(settlement_id, CASE WHEN live THEN true END)` key allows at most one live link before and after
--    the statement, so live links added minus removed is +1 (left WAITING_FOR_FILE), -1 (entered it) or 0.
-- Doctor-months are written in key order, so two transactions moving the same ones wait, never deadlock.
CREATE FUNCTION settlement_doctor_months_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  stage_of text := $sql$CASE WHEN r.status IN ('READY_TO_SETTLE', 'AVAILABLE') THEN 'TO_PROCESS'
      WHEN r.status = 'SETTLED' AND NOT EXISTS (SELECT 1 FROM sepa_transaction_settlements lv
        WHERE lv.settlement_id = r.id AND (CASE WHEN lv.live THEN true END) = true) THEN 'WAITING_FOR_FILE' END$sql$;
  columns text := 'r.reference_month, r.professional_id, r.case_id, r.gross_cents, r.fee_cents, r.net_cents, r.adjusted_cents';
  live_moves text;
  moved text;
  emptied_stages text[];
  emptied_months text[];
  emptied_doctors uuid[];
BEGIN
  IF TG_TABLE_NAME = 'settlements' THEN
    moved := CASE TG_OP
      WHEN 'INSERT' THEN format('SELECT %s AS stage, 1 AS sign, %s FROM added r', stage_of, columns)
      WHEN 'DELETE' THEN format('SELECT %s AS stage, -1 AS sign, %s FROM removed r', stage_of, columns)
      ELSE format('SELECT %1$s AS stage, 1 AS sign, %2$s FROM added r
                   UNION ALL SELECT %1$s, -1, %2$s FROM removed r', stage_of, columns)
    END;
  ELSE
    live_moves := CASE TG_OP
      WHEN 'INSERT' THEN 'SELECT settlement_id, 1 AS n FROM added WHERE live'
      WHEN 'DELETE' THEN 'SELECT settlement_id, -1 AS n FROM removed WHERE live'
      ELSE 'SELECT settlement_id, 1 AS n FROM added WHERE live UNION ALL SELECT settlement_id, -1 FROM removed WHERE live'
    END;
    moved := format('SELECT ''WAITING_FOR_FILE'' AS stage, -l.n AS sign, %s
                       FROM (SELECT settlement_id, sum(n)::int AS n FROM (%s) m GROUP BY 1 HAVING sum(n) <> 0) l
                       JOIN settlements r ON r.id = l.settlement_id AND r.status = ''SETTLED''', columns, live_moves);
  END IF;
  -- Most updates (notes, invoices, a status outside both stages) move nothing: the HAVING writes no row for them.
  EXECUTE format(
    'WITH changed AS (
       INSERT INTO settlement_doctor_months AS d (stage, reference_month, professional_id, professional_name,
                                                  settlements, cases, gross_cents, fee_cents, net_cents, payable_cents)
       SELECT stage, reference_month, professional_id, (SELECT u.name FROM users u WHERE u.id = professional_id),
              sum(sign), sum(CASE WHEN case_id IS NULL THEN 0 ELSE sign END),
              sum(sign * gross_cents), sum(sign * fee_cents), sum(sign * net_cents),
              sum(sign * coalesce(adjusted_cents, net_cents))
         FROM (%s) mv WHERE stage IS NOT NULL
        GROUP BY 1, 2, 3
       HAVING sum(sign) <> 0 OR sum(sign * gross_cents) <> 0 OR sum(sign * fee_cents) <> 0
           OR sum(sign * net_cents) <> 0 OR sum(sign * coalesce(adjusted_cents, net_cents)) <> 0
        ORDER BY 1, 2, 3
       ON CONFLICT (stage, reference_month, professional_id) DO UPDATE SET
         settlements = d.settlements + EXCLUDED.settlements, cases = d.cases + EXCLUDED.cases,
         gross_cents = d.gross_cents + EXCLUDED.gross_cents, fee_cents = d.fee_cents + EXCLUDED.fee_cents,
         net_cents = d.net_cents + EXCLUDED.net_cents, payable_cents = d.payable_cents + EXCLUDED.payable_cents
       RETURNING stage, reference_month, professional_id, settlements)
     SELECT array_agg(stage), array_agg(reference_month), array_agg(professional_id) FROM changed WHERE settlements = 0',
    moved) INTO emptied_stages, emptied_months, emptied_doctors;
  -- An emptied doctor-month goes (all its sums are of no rows, so 0 too); this transaction holds its row.
  IF emptied_stages IS NOT NULL THEN
    DELETE FROM settlement_doctor_months d
     USING unnest(emptied_stages, emptied_months, emptied_doctors) AS e (stage, reference_month, professional_id)
     WHERE d.stage = e.stage AND d.reference_month = e.reference_month AND d.professional_id = e.professional_id
       AND d.settlements = 0;
  END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER settlement_doctor_months_on_insert AFTER INSERT ON settlements
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION settlement_doctor_months_apply();
CREATE TRIGGER settlement_doctor_months_on_update AFTER UPDATE ON settlements
  REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION settlement_doctor_months_apply();
CREATE TRIGGER settlement_doctor_months_on_delete AFTER DELETE ON settlements
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION settlement_doctor_months_apply();
CREATE TRIGGER settlement_doctor_months_on_link_insert AFTER INSERT ON sepa_transaction_settlements
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION settlement_doctor_months_apply();
CREATE TRIGGER settlement_doctor_months_on_link_update AFTER UPDATE ON sepa_transaction_settlements
  REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION settlement_doctor_months_apply();
CREATE TRIGGER settlement_doctor_months_on_link_delete AFTER DELETE ON sepa_transaction_settlements
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION settlement_doctor_months_apply();

-- A doctor renamed: their doctor-months follow, in the same statement. The renamed users are the new
-- (id, name) pairs that were not there before (a set difference: no join of two unindexed transition
-- tables, 0.9 s on an update of 100,000 users that renamed nobody).
CREATE FUNCTION settlement_doctor_months_renamed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE settlement_doctor_months d SET professional_name = renamed.name
    FROM (SELECT id, name FROM added EXCEPT SELECT id, name FROM removed) renamed
   WHERE d.professional_id = renamed.id;
  RETURN NULL;
END;
$$;
CREATE TRIGGER settlement_doctor_months_on_rename AFTER UPDATE ON users
  REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION settlement_doctor_months_renamed();

-- Statement lines per kind and status: count and bank amount. A statement import adds 100,000 lines in
-- one transaction, and an admin's match moves one line: on one row per kind and status, the match would
-- wait for the whole import's commit, and two actions waiting on each other's row could deadlock. So a
-- kind and status may have several rows, whose sum is the total: a transaction adds its change to a row
-- no other transaction holds (`SKIP LOCKED`; its own it finds again), or to a new one when all are held.
-- Nobody ever waits here; the rows stay about as many as the writers that ever ran at once.
CREATE TABLE statement_line_totals (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  kind text NOT NULL,
  status text NOT NULL,
  lines bigint NOT NULL,
  amount_cents bigint NOT NULL
);
CREATE INDEX statement_line_totals_kind_status_idx ON statement_line_totals (kind, status);

CREATE FUNCTION statement_line_totals_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  moved text := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT kind, status, 1 AS sign, bank_amount_cents FROM added'
    WHEN 'DELETE' THEN 'SELECT kind, status, -1 AS sign, bank_amount_cents FROM removed'
    ELSE 'SELECT kind, status, 1 AS sign, bank_amount_cents FROM added
          UNION ALL SELECT kind, status, -1, bank_amount_cents FROM removed'
  END;
  change record;
BEGIN
  -- Updates that move no line between kinds and statuses nor change an amount change no row.
  FOR change IN EXECUTE format(
    'SELECT kind, status, sum(sign) AS lines, sum(sign * bank_amount_cents) AS cents FROM (%s) m
      GROUP BY 1, 2 HAVING sum(sign) <> 0 OR sum(sign * bank_amount_cents) <> 0', moved)
  LOOP
    UPDATE statement_line_totals t SET lines = t.lines + change.lines, amount_cents = t.amount_cents + change.cents
     WHERE t.id = (SELECT f.id FROM statement_line_totals f WHERE f.kind = change.kind AND f.status = change.status
                   LIMIT 1 FOR UPDATE SKIP LOCKED);
    IF NOT FOUND THEN
      INSERT INTO statement_line_totals (kind, status, lines, amount_cents)
      VALUES (change.kind, change.status, change.lines, change.cents);
    END IF;
  END LOOP;
  RETURN NULL;
END;
$$;
CREATE TRIGGER statement_line_totals_on_insert AFTER INSERT ON statement_lines
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION statement_line_totals_apply();
CREATE TRIGGER statement_line_totals_on_update AFTER UPDATE ON statement_lines
  REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION statement_line_totals_apply();
CREATE TRIGGER statement_line_totals_on_delete AFTER DELETE ON statement_lines
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION statement_line_totals_apply();

-- A TRUNCATE fires no row or statement DELETE trigger (the seed's `--reset`, tests): the totals are
-- counted again from what is left, which is what the migration does first too.
CREATE FUNCTION money_totals_recount() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM settlement_doctor_months;
  INSERT INTO settlement_doctor_months (stage, reference_month, professional_id, professional_name, settlements,
                                        cases, gross_cents, fee_cents, net_cents, payable_cents)
  SELECT s.stage, s.reference_month, s.professional_id, u.name, count(*), count(s.case_id), sum(s.gross_cents),
         sum(s.fee_cents), sum(s.net_cents), sum(coalesce(s.adjusted_cents, s.net_cents))
    FROM (SELECT CASE WHEN r.status IN ('READY_TO_SETTLE', 'AVAILABLE') THEN 'TO_PROCESS'
                      WHEN r.status = 'SETTLED' AND NOT EXISTS (SELECT 1 FROM sepa_transaction_settlements lv
                        WHERE lv.settlement_id = r.id AND (CASE WHEN lv.live THEN true END) = true)
                      THEN 'WAITING_FOR_FILE' END AS stage, r.*
            FROM settlements r) s
    JOIN users u ON u.id = s.professional_id
   WHERE s.stage IS NOT NULL
   GROUP BY 1, 2, 3, 4;
  DELETE FROM statement_line_totals;
  INSERT INTO statement_line_totals (kind, status, lines, amount_cents)
  SELECT kind, status, count(*), sum(bank_amount_cents) FROM statement_lines GROUP BY 1, 2;
END;
$$;
CREATE FUNCTION money_totals_recounted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM money_totals_recount();
  RETURN NULL;
END;
$$;
CREATE TRIGGER money_totals_recounted_settlements AFTER TRUNCATE ON settlements
  FOR EACH STATEMENT EXECUTE FUNCTION money_totals_recounted();
CREATE TRIGGER money_totals_recounted_sepa_links AFTER TRUNCATE ON sepa_transaction_settlements
  FOR EACH STATEMENT EXECUTE FUNCTION money_totals_recounted();
CREATE TRIGGER money_totals_recounted_statement_lines AFTER TRUNCATE ON statement_lines
  FOR EACH STATEMENT EXECUTE FUNCTION money_totals_recounted();

-- What already exists when the migration runs.
SELECT money_totals_recount();

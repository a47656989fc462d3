-- Issue 31 (docs/decisions/0167): each payout keeps how many settlements its charges paid that no invoice
-- bills — the breakdown's `settlementsWithoutInvoice` (decision 0156) — so the reconciliation table's
-- "payout without invoice" filter reads the few payouts that have one through a partial index instead of
-- anti-joining every charge row against every invoice on each call (23–35 ms of its 112–147 ms at 1M
-- lines, decision 0158's reversal note).
--
-- The rule (server/statements/payout-breakdown.ts): the distinct settlements named by the payout's rows of
-- kind `charge` for which no `provider_invoices` row has that `settlement_id` (a credit note bills no
-- settlement: it changes nothing here unless it names one itself).
--
-- How it stays exact: whoever changes what a payout's figure depends on takes two locks in a fixed order —
-- the settlements concerned (id order), then the payouts (id order) — and each statement after the locks
-- reads with a fresh snapshot:
--  * payout rows inserted, moved, relinked or deleted: the settlements their charge rows name, before or
--    after, are locked FOR SHARE, then their payouts, old and new; each (payout, settlement) pair that
--    appeared or went moves its payout's figure by one if no invoice bills the settlement;
--  * invoices inserted, relinked or deleted: migration 0050's function already locks the settlements they
--    bill (FOR NO KEY UPDATE, id order) and counts their invoices; each settlement that went from billed to
--    not, or back, moves its payouts' figures by one, in the same function, under the same lock (by
--    difference here: an import's chunk would otherwise recount every row of the month's payouts).
-- FOR SHARE and FOR NO KEY UPDATE conflict, so an invoice billing a settlement and a payout row naming it
-- take turns, and the second counts what the first left; two payout writers naming one settlement both
-- only share it and meet on their payout's row lock instead. No lock or key is dropped.
-- A source import is the exception (server/sources/payouts-kept-figure.ts): while its writes run, the
-- transaction-local setting `admin.payouts_recounted_by_import` has both stand aside (0046/0050's totals
-- still move), and it counts the payouts it touched again once, at its end. Imports hold the advisory lock
-- 'source-import' exclusively; both triggers take it shared before any other lock, so no other writer of
-- payout rows or invoices runs beside an import.

ALTER TABLE provider_payouts
  ADD COLUMN settlements_without_invoice integer NOT NULL DEFAULT 0 CHECK (settlements_without_invoice >= 0);
-- The filter's set: the payouts that have one (a handful where the month is invoiced).
CREATE INDEX provider_payouts_without_invoice_idx ON provider_payouts (id) WHERE settlements_without_invoice > 0;

-- The payouts named, locked in id order, then counted again from their rows (a fresh snapshot): the
-- migration's backfill and a TRUNCATE's recount; the triggers below move the figures by difference.
CREATE FUNCTION provider_payouts_recount_without_invoice(payout_ids uuid[]) RETURNS void LANGUAGE plpgsql
SET plan_cache_mode = force_custom_plan SET jit = off AS $$
BEGIN
  IF payout_ids IS NULL THEN
    RETURN;
  END IF;
  PERFORM 1 FROM (SELECT p.id FROM provider_payouts p WHERE p.id = ANY(payout_ids) ORDER BY p.id FOR NO KEY UPDATE) l;
  UPDATE provider_payouts p SET settlements_without_invoice = coalesce(c.settlements, 0)
    FROM unnest(payout_ids) AS t (id)
    LEFT JOIN (SELECT r.payout_id, count(DISTINCT r.settlement_id)::int AS settlements FROM provider_payout_rows r
                WHERE r.payout_id = ANY(payout_ids) AND r.row_kind = 'charge' AND r.settlement_id IS NOT NULL
                  AND NOT EXISTS (SELECT 1 FROM provider_invoices i WHERE i.settlement_id = r.settlement_id)
                GROUP BY 1) c ON c.payout_id = t.id
   WHERE p.id = t.id AND p.settlements_without_invoice <> coalesce(c.settlements, 0);
END;
$$;

-- Payout rows written, changed or deleted: each (payout, settlement) pair of charge rows the statement
-- added or took away. By difference, as the invoices do: a pair that appeared (no other charge row of that
-- payout names that settlement) adds one to its payout if no invoice bills the settlement, one that
-- disappeared takes it away — rather than recounting every row of the payouts touched (an import's chunk
-- of 20,000 rows recounted 30,000–40,000: 100 ms a chunk). Each set is read in one grouped pass over the
-- arrays (`= ANY`), never a look-up per pair: planned against a table just filled and not yet analysed, a
-- per-pair look-up became a scan of the table per pair (a 100,000-row import took 17 s more). The
-- settlements are locked FOR SHARE, then the payouts, both in id order, before the pairs' rows and
-- invoices are read (a fresh snapshot): two writers of one payout take turns on its row, and the second
-- sees the first's rows.
CREATE FUNCTION provider_payouts_rows_apply() RETURNS trigger LANGUAGE plpgsql
SET plan_cache_mode = force_custom_plan SET jit = off AS $$
DECLARE
  none text := 'SELECT NULL::uuid AS payout_id, NULL::text AS row_kind, NULL::uuid AS settlement_id WHERE false';
  now_rows text := CASE TG_OP WHEN 'DELETE' THEN none ELSE 'SELECT payout_id, row_kind, settlement_id FROM added' END;
  then_rows text := CASE TG_OP WHEN 'INSERT' THEN none ELSE 'SELECT payout_id, row_kind, settlement_id FROM removed' END;
  pair_payouts uuid[];
  pair_settlements uuid[];
  pair_deltas int[];
  payout_ids uuid[];
  payout_deltas int[];
BEGIN
  -- A source import counts its payouts again once, at its end (server/sources/payouts-kept-figure.ts).
  IF current_setting('admin.payouts_recounted_by_import', true) = 'on' THEN
    RETURN NULL;
  END IF;
  -- The pairs whose number of charge rows the statement changed (an update that changes neither nets out).
  EXECUTE format('SELECT array_agg(payout_id), array_agg(settlement_id), array_agg(delta) FROM (
      SELECT payout_id, settlement_id, sum(n)::int AS delta FROM (
        SELECT payout_id, settlement_id, 1 AS n FROM (%s) a WHERE row_kind = ''charge'' AND settlement_id IS NOT NULL
        UNION ALL
        SELECT payout_id, settlement_id, -1 FROM (%s) r WHERE row_kind = ''charge'' AND settlement_id IS NOT NULL) c
       GROUP BY 1, 2 HAVING sum(n) <> 0) pairs', now_rows, then_rows) INTO pair_payouts, pair_settlements, pair_deltas;
  IF pair_payouts IS NULL THEN
    RETURN NULL;
  END IF;
  -- Never beside a source import: it holds this lock exclusively until it has counted its payouts again
  -- and committed (`IMPORT_LOCK`, server/sources/source-import.ts), so neither misses the other's rows.
  PERFORM pg_advisory_xact_lock_shared(hashtext('source-import'));
  -- Whether a settlement is billed must not change under the count (an invoice's writer waits), then the
  -- payouts' rows, each set in id order.
  PERFORM 1 FROM (SELECT s.id FROM settlements s WHERE s.id = ANY(pair_settlements) ORDER BY s.id FOR SHARE) l;
  PERFORM 1 FROM (SELECT p.id FROM provider_payouts p WHERE p.id = ANY(pair_payouts) ORDER BY p.id FOR NO KEY UPDATE) l;
  SELECT array_agg(d.payout_id), array_agg(d.delta) INTO payout_ids, payout_deltas
    FROM (SELECT c.payout_id, sum(c.moved)::int AS delta
            FROM (SELECT x.payout_id,
                         (coalesce(n.charges, 0) > 0)::int - (coalesce(n.charges, 0) - x.delta > 0)::int AS moved
                    FROM unnest(pair_payouts, pair_settlements, pair_deltas) AS x (payout_id, settlement_id, delta)
                    LEFT JOIN (SELECT r.payout_id, r.settlement_id, count(*) AS charges FROM provider_payout_rows r
                                WHERE r.settlement_id = ANY(pair_settlements) AND r.row_kind = 'charge'
                                GROUP BY 1, 2) n ON n.payout_id = x.payout_id AND n.settlement_id = x.settlement_id
                    LEFT JOIN (SELECT DISTINCT i.settlement_id FROM provider_invoices i
                                WHERE i.settlement_id = ANY(pair_settlements)) b ON b.settlement_id = x.settlement_id
                   WHERE b.settlement_id IS NULL) c
           GROUP BY 1 HAVING sum(c.moved) <> 0) d;
  IF payout_ids IS NOT NULL THEN
    UPDATE provider_payouts p SET settlements_without_invoice = p.settlements_without_invoice + d.delta
      FROM unnest(payout_ids, payout_deltas) AS d (id, delta)
     WHERE p.id = d.id;
  END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER provider_payouts_on_rows_insert AFTER INSERT ON provider_payout_rows
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION provider_payouts_rows_apply();
CREATE TRIGGER provider_payouts_on_rows_update AFTER UPDATE ON provider_payout_rows
  REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION provider_payouts_rows_apply();
CREATE TRIGGER provider_payouts_on_rows_delete AFTER DELETE ON provider_payout_rows
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION provider_payouts_rows_apply();

-- Migration 0050's invoices function, its lock, rules and totals unchanged; the settlements whose billing
-- moved (none → some invoice, or back) now also have their payouts counted again, under that lock.
CREATE OR REPLACE FUNCTION provider_sides_invoices_apply() RETURNS trigger LANGUAGE plpgsql
SET plan_cache_mode = force_custom_plan SET jit = off AS $$
DECLARE
  none text := 'SELECT NULL::uuid AS id, NULL::uuid AS settlement_id, NULL::bigint AS amount_cents,
    NULL::uuid AS credited_invoice_id WHERE false';
  now_rows text := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT id, settlement_id, amount_cents, credited_invoice_id FROM added'
    WHEN 'DELETE' THEN none
    ELSE 'SELECT id, settlement_id, amount_cents, credited_invoice_id FROM added EXCEPT SELECT id, settlement_id, amount_cents, credited_invoice_id FROM removed'
  END;
  then_rows text := CASE TG_OP
    WHEN 'INSERT' THEN none
    WHEN 'DELETE' THEN 'SELECT id, settlement_id, amount_cents, credited_invoice_id FROM removed'
    ELSE 'SELECT id, settlement_id, amount_cents, credited_invoice_id FROM removed EXCEPT SELECT id, settlement_id, amount_cents, credited_invoice_id FROM added'
  END;
  unmatched text :=
    'NOT EXISTS (SELECT 1 FROM statement_line_matches m WHERE m.invoice_id = r.id AND m.state = ''MATCHED'')';
  billed_ids uuid[];
  billed_deltas int[];
  locked_ids uuid[];
  locked_gross bigint[];
  locked_deltas int[];
  moved_ids uuid[];
  moved_signs int[];
  payout_ids uuid[];
  payout_deltas int[];
  moved_items bigint;
  moved_cents bigint;
BEGIN
  -- The settlements named on either side, with how many more invoices name them than before: read once
  -- from the transition tables into arrays.
  EXECUTE format('WITH now_rows AS (%s), then_rows AS (%s)
    SELECT array_agg(settlement_id), array_agg(delta) FROM (
      SELECT settlement_id, sum(n)::int AS delta FROM (
        SELECT settlement_id, 1 AS n FROM now_rows WHERE settlement_id IS NOT NULL
        UNION ALL SELECT settlement_id, -1 FROM then_rows WHERE settlement_id IS NOT NULL) b
       GROUP BY 1 HAVING sum(n) <> 0) billed', now_rows, then_rows) INTO billed_ids, billed_deltas;
  -- Migration 0056: never beside a source import, which counts its payouts again once, at its end (as in
  -- provider_payouts_rows_apply); taken before the settlements' lock, in the order the import takes both.
  IF billed_ids IS NOT NULL AND current_setting('admin.payouts_recounted_by_import', true) IS DISTINCT FROM 'on' THEN
    PERFORM pg_advisory_xact_lock_shared(hashtext('source-import'));
  END IF;
  IF billed_ids IS NOT NULL THEN
    -- Locked in id order before their invoices are counted (a fresh snapshot), each with its change; one
    -- this statement deleted is not found.
    SELECT array_agg(l.id), array_agg(l.gross_cents), array_agg(l.delta) INTO locked_ids, locked_gross, locked_deltas
      FROM (SELECT s.id, s.gross_cents, b.delta
              FROM unnest(billed_ids, billed_deltas) AS b (settlement_id, delta)
              JOIN settlements s ON s.id = b.settlement_id
             ORDER BY s.id FOR NO KEY UPDATE OF s) l;
    -- Their invoices counted in one grouped pass, not one look-up per settlement (an import bills 100,000).
    SELECT sum(c.moved), sum(c.moved * c.gross_cents), array_agg(c.id) FILTER (WHERE c.moved <> 0),
           array_agg(c.moved) FILTER (WHERE c.moved <> 0)
      INTO moved_items, moved_cents, moved_ids, moved_signs
      FROM (SELECT l.id, l.gross_cents,
                   (coalesce(n.invoices, 0) = 0)::int - (coalesce(n.invoices, 0) - l.delta = 0)::int AS moved
              FROM unnest(locked_ids, locked_gross, locked_deltas) AS l (id, gross_cents, delta)
              LEFT JOIN (SELECT i.settlement_id, count(*) AS invoices FROM provider_invoices i
                          WHERE i.settlement_id = ANY(locked_ids) GROUP BY 1) n ON n.settlement_id = l.id) c;
    PERFORM provider_side_totals_add('SETTLEMENT_NOT_INVOICED', moved_items, moved_cents);
    -- Migration 0056: each payout whose charges paid a settlement whose billing moved gains (+1: no invoice
    -- bills it any more) or loses (-1: one does now) one per such settlement. By difference, not a recount
    -- of the payouts' rows: a SAF-T chunk of 20,000 invoices would otherwise recount every row of the
    -- month's payouts. The payout rows naming these settlements are read after the settlements' lock, and
    -- each payout locked in id order before it changes (UPDATE adds to its latest committed figure).
    -- A source import counts its payouts again once, at its end (server/sources/payouts-kept-figure.ts).
    IF moved_ids IS NOT NULL AND current_setting('admin.payouts_recounted_by_import', true) IS DISTINCT FROM 'on' THEN
      SELECT array_agg(d.payout_id), array_agg(d.delta) INTO payout_ids, payout_deltas
        FROM (SELECT r.payout_id, sum(m.moved)::int AS delta
                FROM (SELECT DISTINCT r.payout_id, r.settlement_id FROM provider_payout_rows r
                       WHERE r.settlement_id = ANY(moved_ids) AND r.row_kind = 'charge') r
                JOIN unnest(moved_ids, moved_signs) AS m (settlement_id, moved) ON m.settlement_id = r.settlement_id
               GROUP BY 1 HAVING sum(m.moved) <> 0) d;
      IF payout_ids IS NOT NULL THEN
        PERFORM 1 FROM (SELECT p.id FROM provider_payouts p WHERE p.id = ANY(payout_ids) ORDER BY p.id FOR NO KEY UPDATE) l;
        UPDATE provider_payouts p SET settlements_without_invoice = p.settlements_without_invoice + d.delta
          FROM unnest(payout_ids, payout_deltas) AS d (id, delta)
         WHERE p.id = d.id;
      END IF;
    END IF;
  END IF;

  EXECUTE format(
    'WITH now_rows AS (%s), then_rows AS (%s)
     SELECT sum(sign), sum(sign * amount_cents) FROM (
       SELECT 1 AS sign, r.amount_cents FROM now_rows r WHERE r.settlement_id IS NULL AND r.credited_invoice_id IS NULL AND %s
       UNION ALL
       SELECT -1, r.amount_cents FROM then_rows r WHERE r.settlement_id IS NULL AND r.credited_invoice_id IS NULL AND %s) counted',
    now_rows, then_rows, CASE TG_OP WHEN 'INSERT' THEN 'true' ELSE unmatched END, unmatched)
    INTO moved_items, moved_cents;
  PERFORM provider_side_totals_add('INVOICE_WITHOUT_SETTLEMENT', moved_items, moved_cents);
  RETURN NULL;
END;
$$;

-- A TRUNCATE fires no row or DELETE trigger (the seed's `--reset`, tests): every payout counted again.
CREATE FUNCTION provider_payouts_recounted_without_invoice() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM provider_payouts_recount_without_invoice(ARRAY(SELECT p.id FROM provider_payouts p));
  RETURN NULL;
END;
$$;
CREATE TRIGGER provider_payouts_recounted_on_rows AFTER TRUNCATE ON provider_payout_rows
  FOR EACH STATEMENT EXECUTE FUNCTION provider_payouts_recounted_without_invoice();
CREATE TRIGGER provider_payouts_recounted_on_invoices AFTER TRUNCATE ON provider_invoices
  FOR EACH STATEMENT EXECUTE FUNCTION provider_payouts_recounted_without_invoice();

-- What already exists when the migration runs.
SELECT provider_payouts_recount_without_invoice(ARRAY(SELECT p.id FROM provider_payouts p));

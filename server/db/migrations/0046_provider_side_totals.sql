-- The home dashboard's two missing-side counters kept exact by triggers (docs/decisions/0155, its
-- dated section "The two home counters kept"), as migration 0039 keeps the money lists' totals: at
-- 1,000,000 settlements every dashboard load read every settlement and every invoice (150–272 ms). The
-- rules are server/db/provider-sides.ts's:
--  * SETTLEMENT_NOT_INVOICED: a settlement (every one is paid) that no invoice bills
--    (`provider_invoices.settlement_id`): count and gross;
--  * INVOICE_WITHOUT_SETTLEMENT: an invoice with no `settlement_id` and no bank line MATCHED to it:
--    count and amount.
-- Only `settlements.gross_cents`, `provider_invoices.settlement_id`/`amount_cents` and the links'
-- `invoice_id`/`state` are read: columns other migrations add to these tables change nothing here.
--
-- Each trigger adds the change its own statement made, judged against the other tables as they were
-- before it (a new settlement had no invoice, a new invoice no bank line): a statement that writes two of
-- these tables at once (a settlement's deletion setting its invoices' `settlement_id` to NULL) is then
-- counted once. Whoever changes a settlement's or an invoice's side locks it first (settlements FOR NO
-- KEY UPDATE, invoices FOR UPDATE as the links' over-match check does, each in id order), so two
-- transactions billing the same settlement, or unmatching the same invoice, take turns and the second
-- counts what the first left.
--
-- As statement_line_totals, each side may have several rows whose sum is the total: a transaction adds to
-- a row no other holds (SKIP LOCKED; its own it finds again) or to a new one, so an import of 100,000
-- invoices never makes an operator's match wait on the counter.
CREATE TABLE provider_side_totals (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  side text NOT NULL CHECK (side IN ('SETTLEMENT_NOT_INVOICED', 'INVOICE_WITHOUT_SETTLEMENT')),
  items bigint NOT NULL,
  amount_cents bigint NOT NULL
);
CREATE INDEX provider_side_totals_side_idx ON provider_side_totals (side);

CREATE FUNCTION provider_side_totals_add(moved_side text, moved_items bigint, moved_cents bigint)
  RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF coalesce(moved_items, 0) = 0 AND coalesce(moved_cents, 0) = 0 THEN
    RETURN;
  END IF;
  UPDATE provider_side_totals t SET items = t.items + moved_items, amount_cents = t.amount_cents + moved_cents
   WHERE t.id = (SELECT f.id FROM provider_side_totals f WHERE f.side = moved_side LIMIT 1 FOR UPDATE SKIP LOCKED);
  IF NOT FOUND THEN
    INSERT INTO provider_side_totals (side, items, amount_cents) VALUES (moved_side, moved_items, moved_cents);
  END IF;
END;
$$;

-- Settlements written: none is billed yet. A bulk insert (the seed's million) is one statement.
CREATE FUNCTION provider_sides_settlements_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM provider_side_totals_add('SETTLEMENT_NOT_INVOICED', count(*), coalesce(sum(gross_cents), 0))
     FROM added;
  RETURN NULL;
END;
$$;
CREATE TRIGGER provider_sides_on_settlement_insert AFTER INSERT ON settlements
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION provider_sides_settlements_inserted();

-- A settlement's gross changed (nothing in the product does it; a row trigger whose WHEN leaves every
-- other update — statuses, links, notes, in bulk — without a call).
CREATE FUNCTION provider_sides_settlement_gross_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM provider_invoices i WHERE i.settlement_id = NEW.id) THEN
    PERFORM provider_side_totals_add('SETTLEMENT_NOT_INVOICED', 0, NEW.gross_cents - OLD.gross_cents);
  END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER provider_sides_on_settlement_gross AFTER UPDATE OF gross_cents ON settlements
  FOR EACH ROW WHEN (OLD.gross_cents IS DISTINCT FROM NEW.gross_cents)
  EXECUTE FUNCTION provider_sides_settlement_gross_changed();

-- A settlement deleted: whether an invoice billed it must be read BEFORE the row goes, since the key's
-- ON DELETE SET NULL empties its invoices' `settlement_id` before any statement trigger runs. A row
-- trigger: settlements are deleted a selection at a time (decision 0067); the key's SET NULL already runs
-- one UPDATE per deleted row. Its invoices' change (they lose their settlement) is counted by the
-- invoices' update trigger, which no longer finds the settlement and so leaves this side alone.
CREATE FUNCTION provider_sides_settlement_deleting() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM provider_invoices i WHERE i.settlement_id = OLD.id) THEN
    PERFORM provider_side_totals_add('SETTLEMENT_NOT_INVOICED', -1, -OLD.gross_cents);
  END IF;
  RETURN OLD;
END;
$$;
CREATE TRIGGER provider_sides_on_settlement_delete BEFORE DELETE ON settlements
  FOR EACH ROW EXECUTE FUNCTION provider_sides_settlement_deleting();

-- Invoices written, changed or deleted. `now_rows` are the rows as the statement left them and
-- `then_rows` as they were, keeping only the rows whose settlement or amount changed (an update of any
-- other column, in bulk, reads the transition tables and nothing else):
--  * the settlements named on either side: billed before (the invoices naming it now, less those the
--    statement added, plus those it removed) and after; one that went from billed to not, or back, moves
--    its gross (a settlement deleted by this statement is not found: its own trigger counted it);
--  * the invoices themselves: − those counted before, + those counted now. A new invoice had no bank line
--    (a line is linked to an existing invoice); an old one's links are as they were, since a deleted
--    invoice's links are removed by `statement_line_matches_invoice_id_deleted` (migration 0030), which
--    runs after this trigger (triggers of one event run in name order: "provider…" < "statement…").
CREATE FUNCTION provider_sides_invoices_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  none text := 'SELECT NULL::uuid AS id, NULL::uuid AS settlement_id, NULL::bigint AS amount_cents WHERE false';
  now_rows text := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT id, settlement_id, amount_cents FROM added'
    WHEN 'DELETE' THEN none
    ELSE 'SELECT id, settlement_id, amount_cents FROM added EXCEPT SELECT id, settlement_id, amount_cents FROM removed'
  END;
  then_rows text := CASE TG_OP
    WHEN 'INSERT' THEN none
    WHEN 'DELETE' THEN 'SELECT id, settlement_id, amount_cents FROM removed'
    ELSE 'SELECT id, settlement_id, amount_cents FROM removed EXCEPT SELECT id, settlement_id, amount_cents FROM added'
  END;
  unmatched text :=
    'NOT EXISTS (SELECT 1 FROM statement_line_matches m WHERE m.invoice_id = r.id AND m.state = ''MATCHED'')';
  billed_ids uuid[];
  billed_deltas int[];
  locked_ids uuid[];
  locked_gross bigint[];
  moved_items bigint;
  moved_cents bigint;
BEGIN
  -- The settlements named on either side, with how many more invoices name them than before: read once
  -- from the transition tables into arrays, so nothing below is planned against their unknown size.
  EXECUTE format('WITH now_rows AS (%s), then_rows AS (%s)
    SELECT array_agg(settlement_id), array_agg(delta) FROM (
      SELECT settlement_id, sum(n)::int AS delta FROM (
        SELECT settlement_id, 1 AS n FROM now_rows WHERE settlement_id IS NOT NULL
        UNION ALL SELECT settlement_id, -1 FROM then_rows WHERE settlement_id IS NOT NULL) b
       GROUP BY 1 HAVING sum(n) <> 0) billed', now_rows, then_rows) INTO billed_ids, billed_deltas;
  IF billed_ids IS NOT NULL THEN
    -- Locked before their invoices are counted (a fresh snapshot); one this statement deleted is not found.
    SELECT array_agg(l.id), array_agg(l.gross_cents) INTO locked_ids, locked_gross
      FROM (SELECT s.id, s.gross_cents FROM settlements s WHERE s.id = ANY(billed_ids) ORDER BY s.id FOR NO KEY UPDATE) l;
    -- Their invoices counted in one grouped pass, not one look-up per settlement (an import bills 100,000).
    SELECT sum(c.moved), sum(c.moved * c.gross_cents) INTO moved_items, moved_cents
      FROM (SELECT l.gross_cents,
                   (coalesce(n.invoices, 0) = 0)::int - (coalesce(n.invoices, 0) - b.delta = 0)::int AS moved
              FROM unnest(billed_ids, billed_deltas) AS b (settlement_id, delta)
              JOIN unnest(locked_ids, locked_gross) AS l (id, gross_cents) ON l.id = b.settlement_id
              LEFT JOIN (SELECT i.settlement_id, count(*) AS invoices FROM provider_invoices i
                          WHERE i.settlement_id = ANY(locked_ids) GROUP BY 1) n ON n.settlement_id = b.settlement_id) c;
    PERFORM provider_side_totals_add('SETTLEMENT_NOT_INVOICED', moved_items, moved_cents);
  END IF;

  EXECUTE format(
    'WITH now_rows AS (%s), then_rows AS (%s)
     SELECT sum(sign), sum(sign * amount_cents) FROM (
       SELECT 1 AS sign, r.amount_cents FROM now_rows r WHERE r.settlement_id IS NULL AND %s
       UNION ALL
       SELECT -1, r.amount_cents FROM then_rows r WHERE r.settlement_id IS NULL AND %s) counted',
    now_rows, then_rows, CASE TG_OP WHEN 'INSERT' THEN 'true' ELSE unmatched END, unmatched)
    INTO moved_items, moved_cents;
  PERFORM provider_side_totals_add('INVOICE_WITHOUT_SETTLEMENT', moved_items, moved_cents);
  RETURN NULL;
END;
$$;
CREATE TRIGGER provider_sides_on_invoice_insert AFTER INSERT ON provider_invoices
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION provider_sides_invoices_apply();
CREATE TRIGGER provider_sides_on_invoice_update AFTER UPDATE ON provider_invoices
  REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION provider_sides_invoices_apply();
CREATE TRIGGER provider_sides_on_invoice_delete AFTER DELETE ON provider_invoices
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION provider_sides_invoices_apply();

-- Bank lines MATCHED to an invoice, or no longer: per invoice, the MATCHED links the statement added less
-- those it removed (a SUGGESTED link matches nothing). An invoice without a settlement that went from
-- none to some, or back, moves. Its row is locked first, FOR UPDATE as the over-match check of migration
-- 0026 locks it, in id order; a deleted invoice (its links cascading) is not found: its own trigger
-- counted it.
CREATE FUNCTION provider_sides_links_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  matched_added text := 'SELECT invoice_id, 1 AS n FROM added WHERE invoice_id IS NOT NULL AND state = ''MATCHED''';
  matched_removed text := 'SELECT invoice_id, -1 AS n FROM removed WHERE invoice_id IS NOT NULL AND state = ''MATCHED''';
  linked_ids uuid[];
  linked_deltas int[];
  locked_ids uuid[];
  locked_amounts bigint[];
  moved_items bigint;
  moved_cents bigint;
BEGIN
  EXECUTE format('SELECT array_agg(invoice_id), array_agg(delta) FROM (
      SELECT invoice_id, sum(n)::int AS delta FROM (%s) m GROUP BY 1 HAVING sum(n) <> 0) matching',
    CASE TG_OP WHEN 'INSERT' THEN matched_added WHEN 'DELETE' THEN matched_removed
               ELSE matched_added || ' UNION ALL ' || matched_removed END) INTO linked_ids, linked_deltas;
  IF linked_ids IS NULL THEN
    RETURN NULL;
  END IF;
  -- All of them locked (one whose settlement another transaction is taking away waits for it), those
  -- billing nothing kept, as they are once locked.
  SELECT array_agg(i.id) FILTER (WHERE i.settlement_id IS NULL),
         array_agg(i.amount_cents) FILTER (WHERE i.settlement_id IS NULL) INTO locked_ids, locked_amounts
    FROM (SELECT i.id, i.settlement_id, i.amount_cents FROM provider_invoices i
           WHERE i.id = ANY(linked_ids) ORDER BY i.id FOR UPDATE) i;
  SELECT sum(c.moved), sum(c.moved * c.amount_cents) INTO moved_items, moved_cents
    FROM (SELECT l.amount_cents,
                 (coalesce(n.matched, 0) = 0)::int - (coalesce(n.matched, 0) - d.delta = 0)::int AS moved
            FROM unnest(linked_ids, linked_deltas) AS d (invoice_id, delta)
            JOIN unnest(locked_ids, locked_amounts) AS l (id, amount_cents) ON l.id = d.invoice_id
            LEFT JOIN (SELECT m.invoice_id, count(*) AS matched FROM statement_line_matches m
                        WHERE m.invoice_id = ANY(locked_ids) AND m.state = 'MATCHED' GROUP BY 1) n
                   ON n.invoice_id = d.invoice_id) c;
  PERFORM provider_side_totals_add('INVOICE_WITHOUT_SETTLEMENT', moved_items, moved_cents);
  RETURN NULL;
END;
$$;
CREATE TRIGGER provider_sides_on_link_insert AFTER INSERT ON statement_line_matches
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION provider_sides_links_apply();
CREATE TRIGGER provider_sides_on_link_update AFTER UPDATE ON statement_line_matches
  REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION provider_sides_links_apply();
CREATE TRIGGER provider_sides_on_link_delete AFTER DELETE ON statement_line_matches
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION provider_sides_links_apply();

-- A TRUNCATE fires no DELETE trigger (the seed's `--reset`, tests): both sides are counted again from
-- what is left, which is what the migration does first too (a side with nothing has no row).
CREATE FUNCTION provider_side_totals_recount() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM provider_side_totals;
  INSERT INTO provider_side_totals (side, items, amount_cents)
  SELECT 'SETTLEMENT_NOT_INVOICED', count(*), coalesce(sum(s.gross_cents), 0) FROM settlements s
   WHERE NOT EXISTS (SELECT 1 FROM provider_invoices i WHERE i.settlement_id = s.id)
  HAVING count(*) > 0;
  INSERT INTO provider_side_totals (side, items, amount_cents)
  SELECT 'INVOICE_WITHOUT_SETTLEMENT', count(*), coalesce(sum(i.amount_cents), 0) FROM provider_invoices i
   WHERE i.settlement_id IS NULL
     AND NOT EXISTS (SELECT 1 FROM statement_line_matches m WHERE m.invoice_id = i.id AND m.state = 'MATCHED')
  HAVING count(*) > 0;
END;
$$;
CREATE FUNCTION provider_side_totals_recounted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM provider_side_totals_recount();
  RETURN NULL;
END;
$$;
CREATE TRIGGER provider_side_totals_recounted_settlements AFTER TRUNCATE ON settlements
  FOR EACH STATEMENT EXECUTE FUNCTION provider_side_totals_recounted();
CREATE TRIGGER provider_side_totals_recounted_invoices AFTER TRUNCATE ON provider_invoices
  FOR EACH STATEMENT EXECUTE FUNCTION provider_side_totals_recounted();
CREATE TRIGGER provider_side_totals_recounted_links AFTER TRUNCATE ON statement_line_matches
  FOR EACH STATEMENT EXECUTE FUNCTION provider_side_totals_recounted();

-- What already exists when the migration runs.
SELECT provider_side_totals_recount();

-- Issue 31 (docs/decisions/0162): the kept totals' statement triggers of migrations 0046/0047, planned for
-- the statement in front of them. PL/pgSQL keeps a plan per statement of a function for the whole session;
-- after five calls it keeps a generic one, planned without the arrays' contents, which guesses ten
-- settlements where an import's chunk bills 5,000. Its count of the billed settlements' invoices then became
-- a nested loop comparing every settlement with every count (12.5 million pairs a chunk): a SAF-T month of
-- 100,000 invoices billing settlements took 6.7 s to insert, 4 s of it in these triggers from the sixth
-- chunk on; a server's pooled connection, which has run them more than five times, plans every statement
-- generically, whatever its size. Each statement is now planned with its arrays (`plan_cache_mode`,
-- set for these functions only), and the lock hands back each settlement's (invoice's) change beside it,
-- so the count is one grouped pass over the locked rows and their invoices (links).
--
-- Nothing else changes: the same rows are locked in the same modes and order before they are counted (a
-- fresh snapshot), the same rules (0046's comment block, 0047's credit notes), the same totals.

CREATE OR REPLACE FUNCTION provider_sides_invoices_apply() RETURNS trigger LANGUAGE plpgsql
SET plan_cache_mode = force_custom_plan AS $$
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
  IF billed_ids IS NOT NULL THEN
    -- Locked in id order before their invoices are counted (a fresh snapshot), each with its change; one
    -- this statement deleted is not found.
    SELECT array_agg(l.id), array_agg(l.gross_cents), array_agg(l.delta) INTO locked_ids, locked_gross, locked_deltas
      FROM (SELECT s.id, s.gross_cents, b.delta
              FROM unnest(billed_ids, billed_deltas) AS b (settlement_id, delta)
              JOIN settlements s ON s.id = b.settlement_id
             ORDER BY s.id FOR NO KEY UPDATE OF s) l;
    -- Their invoices counted in one grouped pass, not one look-up per settlement (an import bills 100,000).
    SELECT sum(c.moved), sum(c.moved * c.gross_cents) INTO moved_items, moved_cents
      FROM (SELECT l.gross_cents,
                   (coalesce(n.invoices, 0) = 0)::int - (coalesce(n.invoices, 0) - l.delta = 0)::int AS moved
              FROM unnest(locked_ids, locked_gross, locked_deltas) AS l (id, gross_cents, delta)
              LEFT JOIN (SELECT i.settlement_id, count(*) AS invoices FROM provider_invoices i
                          WHERE i.settlement_id = ANY(locked_ids) GROUP BY 1) n ON n.settlement_id = l.id) c;
    PERFORM provider_side_totals_add('SETTLEMENT_NOT_INVOICED', moved_items, moved_cents);
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

CREATE OR REPLACE FUNCTION provider_sides_links_apply() RETURNS trigger LANGUAGE plpgsql
SET plan_cache_mode = force_custom_plan AS $$
DECLARE
  matched_added text := 'SELECT invoice_id, 1 AS n FROM added WHERE invoice_id IS NOT NULL AND state = ''MATCHED''';
  matched_removed text := 'SELECT invoice_id, -1 AS n FROM removed WHERE invoice_id IS NOT NULL AND state = ''MATCHED''';
  linked_ids uuid[];
  linked_deltas int[];
  locked_ids uuid[];
  locked_amounts bigint[];
  locked_deltas int[];
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
  -- All of them locked in id order (one whose settlement another transaction is taking away waits for
  -- it), those accounted for by nothing else kept, as they are once locked, each with its change.
  SELECT array_agg(i.id) FILTER (WHERE i.settlement_id IS NULL AND i.credited_invoice_id IS NULL),
         array_agg(i.amount_cents) FILTER (WHERE i.settlement_id IS NULL AND i.credited_invoice_id IS NULL),
         array_agg(i.delta) FILTER (WHERE i.settlement_id IS NULL AND i.credited_invoice_id IS NULL)
    INTO locked_ids, locked_amounts, locked_deltas
    FROM (SELECT i.id, i.settlement_id, i.amount_cents, i.credited_invoice_id, d.delta
            FROM unnest(linked_ids, linked_deltas) AS d (invoice_id, delta)
            JOIN provider_invoices i ON i.id = d.invoice_id
           ORDER BY i.id FOR UPDATE OF i) i;
  SELECT sum(c.moved), sum(c.moved * c.amount_cents) INTO moved_items, moved_cents
    FROM (SELECT l.amount_cents,
                 (coalesce(n.matched, 0) = 0)::int - (coalesce(n.matched, 0) - l.delta = 0)::int AS moved
            FROM unnest(locked_ids, locked_amounts, locked_deltas) AS l (id, amount_cents, delta)
            LEFT JOIN (SELECT m.invoice_id, count(*) AS matched FROM statement_line_matches m
                        WHERE m.invoice_id = ANY(locked_ids) AND m.state = 'MATCHED' GROUP BY 1) n
                   ON n.invoice_id = l.id) c;
  PERFORM provider_side_totals_add('INVOICE_WITHOUT_SETTLEMENT', moved_items, moved_cents);
  RETURN NULL;
END;
$$;

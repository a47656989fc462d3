-- Issue 31 (decision 0155, amended at the merge of the imports): a credit note is not an invoice with no
-- paid settlement. Imported from SAF-T (migration 0043) it bills no settlement itself — it names the
-- invoice it corrects, `credited_invoice_id` — so migration 0046's rule counted every refund's credit note,
-- at its negative amount, on the home card "invoices with no paid settlement". An invoicing document is now
-- accounted for when it bills a settlement, corrects an invoice, or a bank line MATCHED pays it
-- (`server/db/provider-sides.ts`), and the triggers follow `credited_invoice_id` as they follow
-- `settlement_id`. Only the functions change; the triggers of 0046 call them by name.

CREATE OR REPLACE FUNCTION provider_sides_invoices_apply() RETURNS trigger LANGUAGE plpgsql AS $$
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
       SELECT 1 AS sign, r.amount_cents FROM now_rows r WHERE r.settlement_id IS NULL AND r.credited_invoice_id IS NULL AND %s
       UNION ALL
       SELECT -1, r.amount_cents FROM then_rows r WHERE r.settlement_id IS NULL AND r.credited_invoice_id IS NULL AND %s) counted',
    now_rows, then_rows, CASE TG_OP WHEN 'INSERT' THEN 'true' ELSE unmatched END, unmatched)
    INTO moved_items, moved_cents;
  PERFORM provider_side_totals_add('INVOICE_WITHOUT_SETTLEMENT', moved_items, moved_cents);
  RETURN NULL;
END;
$$;

CREATE OR REPLACE FUNCTION provider_sides_links_apply() RETURNS trigger LANGUAGE plpgsql AS $$
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
  SELECT array_agg(i.id) FILTER (WHERE i.settlement_id IS NULL AND i.credited_invoice_id IS NULL),
         array_agg(i.amount_cents) FILTER (WHERE i.settlement_id IS NULL AND i.credited_invoice_id IS NULL) INTO locked_ids, locked_amounts
    FROM (SELECT i.id, i.settlement_id, i.amount_cents, i.credited_invoice_id FROM provider_invoices i
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

CREATE OR REPLACE FUNCTION provider_side_totals_recount() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM provider_side_totals;
  INSERT INTO provider_side_totals (side, items, amount_cents)
  SELECT 'SETTLEMENT_NOT_INVOICED', count(*), coalesce(sum(s.gross_cents), 0) FROM settlements s
   WHERE NOT EXISTS (SELECT 1 FROM provider_invoices i WHERE i.settlement_id = s.id)
  HAVING count(*) > 0;
  INSERT INTO provider_side_totals (side, items, amount_cents)
  SELECT 'INVOICE_WITHOUT_SETTLEMENT', count(*), coalesce(sum(i.amount_cents), 0) FROM provider_invoices i
   WHERE i.settlement_id IS NULL AND i.credited_invoice_id IS NULL
     AND NOT EXISTS (SELECT 1 FROM statement_line_matches m WHERE m.invoice_id = i.id AND m.state = 'MATCHED')
  HAVING count(*) > 0;
END;
$$;

-- What already exists when the migration runs.
SELECT provider_side_totals_recount();

-- Settlements (issue 11). A doctor's invoice on a settlement (decision 0067): its type is what the bytes are
-- (sniffed on upload) and its name the one it is downloaded under. Both belong to the settlement, not
-- to stored_files: identical bytes are stored once, under the first uploader's name and claimed type.
ALTER TABLE settlements
  ADD COLUMN invoice_name text CHECK (invoice_name IS NULL OR char_length(invoice_name) BETWEEN 1 AND 300),
  ADD COLUMN invoice_content_type text
    CHECK (invoice_content_type IS NULL OR invoice_content_type IN ('application/pdf', 'image/jpeg', 'image/png')),
  ADD CONSTRAINT settlements_invoice_described
    CHECK ((invoice_name IS NULL AND invoice_content_type IS NULL) OR invoice_file_id IS NOT NULL);


-- Every statement that locks several settlements takes them in id order (confirming a month, bulk
-- delete: decision 0066), so two of them wait for each other instead of deadlocking. The funds release
-- of 0015 locked in index order; it now locks in id order too. FOR UPDATE re-checks the status on a row
-- another transaction changed meanwhile (settled, refunded, released by another run), which is skipped.
CREATE OR REPLACE FUNCTION release_due_settlements(p_today date, p_at timestamptz) RETURNS integer LANGUAGE sql AS $$
  WITH due AS (
    SELECT id FROM settlements
     WHERE status = 'READY_TO_SETTLE' AND available_on <= p_today
     ORDER BY id
       FOR UPDATE
  ), moved AS (
    UPDATE settlements s SET status = 'AVAILABLE', updated_at = p_at
      FROM due
     WHERE s.id = due.id AND s.status = 'READY_TO_SETTLE'
    RETURNING s.id, s.available_on
  ), audited AS (
    INSERT INTO audit_log (actor_id, action, entity_type, entity_id, before, after, created_at)
    SELECT NULL, 'settlement.funds-released', 'settlement', moved.id::text,
           jsonb_build_object('status', 'READY_TO_SETTLE'),
           jsonb_build_object('status', 'AVAILABLE', 'availableOn', moved.available_on::text),
           p_at
      FROM moved
    RETURNING 1
  )
  SELECT count(*)::integer FROM audited
$$;

-- Funds released: a READY_TO_SETTLE settlement whose available-on date (Europe/Lisbon) has come becomes
-- AVAILABLE by itself (DESIGN §6), each move with its audit row (actor null: the system).

-- Only the settlements still waiting: the release's UPDATE reads this index and nothing else.
CREATE INDEX settlements_ready_available_on_idx ON settlements (available_on) WHERE status = 'READY_TO_SETTLE';

-- The list's sorts without a filter (newest first by default, or by payable amount) read an index.
CREATE INDEX settlements_created_idx ON settlements (created_at, id);
CREATE INDEX settlements_payable_idx ON settlements ((coalesce(adjusted_cents, net_cents)), id);

-- One statement, so the moves and their audit rows commit together. Idempotent and safe to run from
-- several instances at once: a row another run already moved fails the re-checked WHERE after its
-- lock is released (READ COMMITTED), so it is neither moved nor audited twice. Answers how many moved.
CREATE FUNCTION release_due_settlements(p_today date, p_at timestamptz) RETURNS integer LANGUAGE sql AS $$
  WITH moved AS (
    UPDATE settlements SET status = 'AVAILABLE', updated_at = p_at
     WHERE status = 'READY_TO_SETTLE' AND available_on <= p_today
    RETURNING id, available_on
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

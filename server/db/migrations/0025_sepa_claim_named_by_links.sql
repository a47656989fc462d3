-- A SEPA file's claim at 100,000 settlements (docs/decisions/0099): the claim's audit row names its
-- settlements through the file's links instead of 100,000 `audit_log_entities` rows.
--
-- The claim (SETTLED → PENDING_TRANSFER, action `settlement.included-in-sepa`) writes one audit row on
-- the SEPA file, and in the same transaction one `sepa_transaction_settlements` row per settlement it
-- took. Those links already say which settlements the claim moved, and they are kept when the file
-- becomes UNAVAILABLE or a transfer is rejected (`live` goes false). Only deleting the file removes
-- them; the trigger below names the settlements on the claim's row first, so the history survives.

-- The audit rows that are about an entity without being on it: the batch rows naming it
-- (`audit_log_entities`, migration 0021), and for a settlement the claims of the SEPA files it was
-- put in — found through its doctor's transfers (indexed by doctor) and the link's primary key
-- (transfer, settlement). The audit list's history of one entity reads this.
CREATE FUNCTION audit_ids_naming(p_entity_type text, p_entity_id text) RETURNS SETOF bigint
  LANGUAGE sql STABLE AS $$
  SELECT n.audit_id FROM audit_log_entities n
   WHERE n.entity_type = p_entity_type AND n.entity_id = p_entity_id
  UNION ALL
  SELECT a.id
    FROM settlements s
    JOIN sepa_transactions t ON t.professional_id = s.professional_id
    JOIN sepa_transaction_settlements l ON l.sepa_transaction_id = t.id AND l.settlement_id = s.id
    JOIN audit_log a ON a.entity_type = 'sepa_file' AND a.entity_id = t.sepa_file_id::text
                    AND a.action = 'settlement.included-in-sepa'
   WHERE p_entity_type = 'settlement'
     AND s.id = CASE WHEN p_entity_id ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
                     THEN p_entity_id::uuid END
$$;

-- A deleted file takes its links with it (ON DELETE CASCADE): its claim's row names the settlements
-- it had moved before they go, whoever deletes it.
CREATE FUNCTION sepa_file_name_claimed_settlements() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO audit_log_entities (entity_type, entity_id, audit_id)
  SELECT 'settlement', l.settlement_id::text, a.id
    FROM sepa_transaction_settlements l
    JOIN audit_log a ON a.entity_type = 'sepa_file' AND a.entity_id = OLD.id::text
                    AND a.action = 'settlement.included-in-sepa'
   WHERE l.sepa_file_id = OLD.id
  ON CONFLICT DO NOTHING;
  RETURN OLD;
END;
$$;
CREATE TRIGGER sepa_file_deleted_names_claim BEFORE DELETE ON sepa_files
  FOR EACH ROW EXECUTE FUNCTION sepa_file_name_claimed_settlements();

-- A settlement may be deleted before PENDING_TRANSFER (DESIGN §6). The payout rows that paid it and the invoices
-- that billed it keep their rows and lose the link: their `settlement_id` key is ON DELETE SET NULL (migration
-- 0043). But a payout row's `link_method` (how its settlement was found) stayed, and 0043's check
-- `(settlement_id IS NULL) = (link_method IS NULL)` refused the key's own update: deleting a card-paid settlement
-- failed with 23514, a 500. An invoice kept a method naming a link it no longer had. Whoever clears a row's
-- settlement — the key's action, or any later writer — now clears how it was found with it.
CREATE FUNCTION settlement_link_cleared() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.link_method := NULL;
  RETURN NEW;
END $$;

CREATE TRIGGER provider_payout_rows_settlement_cleared
  BEFORE UPDATE OF settlement_id ON provider_payout_rows
  FOR EACH ROW WHEN (NEW.settlement_id IS NULL AND NEW.link_method IS NOT NULL)
  EXECUTE FUNCTION settlement_link_cleared();

CREATE TRIGGER provider_invoices_settlement_cleared
  BEFORE UPDATE OF settlement_id ON provider_invoices
  FOR EACH ROW WHEN (NEW.settlement_id IS NULL AND NEW.link_method IS NOT NULL)
  EXECUTE FUNCTION settlement_link_cleared();

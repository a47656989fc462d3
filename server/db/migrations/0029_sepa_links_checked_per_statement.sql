-- A SEPA file's links are checked once per statement, not once per row (docs/decisions/0111).
--
-- Generating a file for 100,000 settlements inserts 100,000 `sepa_transaction_settlements` rows in one
-- statement. Their two foreign keys (to the settlement, to the transfer and its file) ran 200,000
-- row-level checks, each a primary-key lookup and a row lock: 2.0 of the insert's 2.7 s. The rules are
-- the same below, written as statement-level triggers that check every row a statement wrote in one
-- sorted pass, and lock what they reference FOR KEY SHARE as the keys' checks did (so a settlement or a
-- transfer cannot be deleted under an uncommitted link, on any connection).

ALTER TABLE sepa_transaction_settlements
  DROP CONSTRAINT sepa_transaction_settlements_settlement_id_fkey,
  DROP CONSTRAINT sepa_transaction_settlements_sepa_transaction_id_sepa_file_fkey;

-- Every link names an existing settlement, and an existing transfer of the file it names.
CREATE FUNCTION sepa_links_check_references() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  wanted bigint;
  found bigint;
BEGIN
  SELECT count(DISTINCT settlement_id) INTO wanted FROM added;
  -- In id order (a B-tree walks `= ANY(ARRAY(…))` sorted): locks are taken as every other writer of
  -- settlements takes them (decision 0066).
  SELECT count(*) INTO found
    FROM (SELECT 1 FROM settlements s WHERE s.id = ANY(ARRAY(SELECT DISTINCT settlement_id FROM added))
          FOR KEY SHARE) locked;
  IF found <> wanted THEN
    RAISE foreign_key_violation USING
      MESSAGE = 'insert on table "sepa_transaction_settlements" names a settlement that does not exist',
      TABLE = 'sepa_transaction_settlements';
  END IF;
  SELECT count(*) INTO wanted FROM (SELECT DISTINCT sepa_transaction_id, sepa_file_id FROM added) pairs;
  SELECT count(*) INTO found
    FROM (SELECT 1 FROM sepa_transactions t
           WHERE (t.id, t.sepa_file_id) IN (SELECT sepa_transaction_id, sepa_file_id FROM added)
          FOR KEY SHARE) locked;
  IF found <> wanted THEN
    RAISE foreign_key_violation USING
      MESSAGE = 'insert on table "sepa_transaction_settlements" names a transfer that is not in its file',
      TABLE = 'sepa_transaction_settlements';
  END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER sepa_links_check_references AFTER INSERT ON sepa_transaction_settlements
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION sepa_links_check_references();

-- What a link, a settlement or a transfer is never changes: only `live` moves on a link. (A statement
-- trigger cannot both read the changed rows and fire only on some columns, so a change of identity is
-- refused instead of re-checked.)
CREATE FUNCTION refuse_identity_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE foreign_key_violation USING
    MESSAGE = format('the identity of a row of "%s" never changes (%s)', TG_TABLE_NAME, TG_ARGV[0]),
    TABLE = TG_TABLE_NAME;
END;
$$;
CREATE TRIGGER sepa_links_identity BEFORE UPDATE OF sepa_transaction_id, sepa_file_id, settlement_id
  ON sepa_transaction_settlements FOR EACH ROW
  WHEN (OLD.sepa_transaction_id IS DISTINCT FROM NEW.sepa_transaction_id
        OR OLD.sepa_file_id IS DISTINCT FROM NEW.sepa_file_id
        OR OLD.settlement_id IS DISTINCT FROM NEW.settlement_id)
  EXECUTE FUNCTION refuse_identity_change('sepa_transaction_id, sepa_file_id, settlement_id');
CREATE TRIGGER settlements_identity BEFORE UPDATE OF id ON settlements FOR EACH ROW
  WHEN (OLD.id IS DISTINCT FROM NEW.id) EXECUTE FUNCTION refuse_identity_change('id');
CREATE TRIGGER sepa_transactions_identity BEFORE UPDATE OF id, sepa_file_id ON sepa_transactions FOR EACH ROW
  WHEN (OLD.id IS DISTINCT FROM NEW.id OR OLD.sepa_file_id IS DISTINCT FROM NEW.sepa_file_id)
  EXECUTE FUNCTION refuse_identity_change('id, sepa_file_id');

-- A settlement a link names is never deleted (the key was NO ACTION).
CREATE FUNCTION settlements_deleted_check_links() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM sepa_transaction_settlements l WHERE l.settlement_id IN (SELECT id FROM removed)) THEN
    RAISE foreign_key_violation USING
      MESSAGE = 'delete on table "settlements" removes a settlement a SEPA transfer names',
      TABLE = 'settlements';
  END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER settlements_deleted_check_links AFTER DELETE ON settlements
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION settlements_deleted_check_links();

-- A deleted transfer takes its links with it (the key was ON DELETE CASCADE), also when its file is
-- deleted: the file's own trigger (migration 0025) has named the claimed settlements by then.
CREATE FUNCTION sepa_transactions_deleted_drop_links() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM sepa_transaction_settlements l WHERE l.sepa_transaction_id IN (SELECT id FROM removed);
  RETURN NULL;
END;
$$;
CREATE TRIGGER sepa_transactions_deleted_drop_links AFTER DELETE ON sepa_transactions
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION sepa_transactions_deleted_drop_links();

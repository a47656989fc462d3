-- A statement's lines, links and history are checked once per statement, not once per row
-- (docs/decisions/0113), as migration 0029 did for the SEPA links.
--
-- A 100,000-line import ran ~100,000 + 2 × 35,000 + 2 × (history rows) row-level foreign-key checks:
-- each a primary-key lookup and a row lock, even when every line names the same statement file (0.6 s
-- per 100,000 lines for that one key), and a trigger call even for a NULL key. The rules below are the
-- keys' rules, written once as two generic functions over the rows a statement wrote (a transition
-- table): every referenced row is locked FOR KEY SHARE, in id order (decision 0066), as the keys' checks
-- locked it, so it cannot be deleted under an uncommitted reference on any connection; a missing one is
-- refused with the keys' SQLSTATE, 23503, and the statement keeps nothing. A deletion cascades, sets
-- NULL or is refused as each key did.

ALTER TABLE statement_lines
  DROP CONSTRAINT statement_lines_statement_file_id_fkey,
  DROP CONSTRAINT statement_lines_last_action_id_fkey;
ALTER TABLE statement_line_matches
  DROP CONSTRAINT statement_line_matches_statement_line_id_fkey,
  DROP CONSTRAINT statement_line_matches_sepa_file_id_fkey,
  DROP CONSTRAINT statement_line_matches_sepa_transaction_id_fkey,
  DROP CONSTRAINT statement_line_matches_payout_id_fkey,
  DROP CONSTRAINT statement_line_matches_invoice_id_fkey;
ALTER TABLE statement_line_history
  DROP CONSTRAINT statement_line_history_statement_line_id_fkey,
  DROP CONSTRAINT statement_line_history_actor_id_fkey;

-- The references a statement wrote exist, and are locked FOR KEY SHARE until it commits.
-- TG_ARGV, in threes: referencing column, referenced table, referenced column (single-column keys).
-- After an INSERT the trigger names its new rows `written`; after an UPDATE also the old ones
-- `previous`, and only the keys a row changed are checked, as a key checks only a changed key (rows are
-- paired by `id`, which the identity triggers below keep).
CREATE FUNCTION check_references() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  referencing text;
  referenced_table text;
  referenced text;
  named text;
  wanted bigint;
  found bigint;
  missing text;
BEGIN
  FOR i IN 0 .. TG_NARGS - 1 BY 3 LOOP
    referencing := TG_ARGV[i];
    referenced_table := TG_ARGV[i + 1];
    referenced := TG_ARGV[i + 2];
    named := CASE TG_OP
      WHEN 'INSERT' THEN format('SELECT w.%1$I AS key FROM written w WHERE w.%1$I IS NOT NULL', referencing)
      ELSE format('SELECT w.%1$I AS key FROM written w JOIN previous o ON o.id = w.id
                    WHERE w.%1$I IS NOT NULL AND w.%1$I IS DISTINCT FROM o.%1$I', referencing)
    END;
    -- One lookup per distinct key (an import's lines all name one file), locked in key order.
    EXECUTE format(
      'SELECT cardinality(k.keys),
              (SELECT count(*) FROM (SELECT FROM %2$I r WHERE r.%3$I = ANY(k.keys) ORDER BY r.%3$I FOR KEY SHARE) locked)
         FROM (SELECT ARRAY(SELECT DISTINCT n.key FROM (%1$s) n) AS keys) k',
      named, referenced_table, referenced) INTO wanted, found;
    IF found <> wanted THEN
      EXECUTE format('SELECT n.key::text FROM (%1$s) n WHERE NOT EXISTS (SELECT FROM %2$I r WHERE r.%3$I = n.key) LIMIT 1',
                     named, referenced_table, referenced) INTO missing;
      RAISE foreign_key_violation USING
        MESSAGE = format('insert or update on table "%s" names a row of "%s" that does not exist', TG_TABLE_NAME,
                         referenced_table),
        DETAIL = format('Key (%s)=(%s) is not present in table "%s".', referencing, missing, referenced_table),
        -- the name the key had, so logs and readers of the error see the same constraint as before
        CONSTRAINT = format('%s_%s_fkey', TG_TABLE_NAME, referencing),
        TABLE = TG_TABLE_NAME,
        COLUMN = referencing;
    END IF;
  END LOOP;
  RETURN NULL;
END;
$$;

-- What a deletion of referenced rows does to the rows naming them, as the key's ON DELETE did.
-- TG_ARGV: referencing table, referencing column, referenced column, action ('CASCADE', 'SET NULL' or
-- 'NO ACTION': refused if a row still names a deleted one once the statement is done). The deleted rows
-- are `removed`. A TRUNCATE of the referenced table is refused while rows name it, unless the same
-- TRUNCATE empties them too (a key's TRUNCATE … CASCADE emptied them: name them now).
CREATE FUNCTION references_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  referencing_table text := TG_ARGV[0];
  referencing text := TG_ARGV[1];
  referenced text := TG_ARGV[2];
  action text := TG_ARGV[3];
  named boolean;
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    EXECUTE format('SELECT EXISTS (SELECT FROM %I c WHERE c.%I IS NOT NULL)', referencing_table, referencing)
      INTO named;
    IF named THEN
      RAISE feature_not_supported USING
        MESSAGE = format('cannot truncate "%s": rows of "%s" name it (%s)', TG_TABLE_NAME, referencing_table,
                         referencing),
        HINT = format('Truncate table "%s" at the same time.', referencing_table);
    END IF;
  ELSIF action = 'CASCADE' THEN
    EXECUTE format('DELETE FROM %1$I c WHERE c.%2$I IS NOT NULL AND c.%2$I IN (SELECT r.%3$I FROM removed r)',
                   referencing_table, referencing, referenced);
  ELSIF action = 'SET NULL' THEN
    EXECUTE format('UPDATE %1$I c SET %2$I = NULL WHERE c.%2$I IS NOT NULL AND c.%2$I IN (SELECT r.%3$I FROM removed r)',
                   referencing_table, referencing, referenced);
  ELSIF action = 'NO ACTION' THEN
    EXECUTE format('SELECT EXISTS (SELECT FROM %1$I c WHERE c.%2$I IS NOT NULL AND c.%2$I IN (SELECT r.%3$I FROM removed r))',
                   referencing_table, referencing, referenced) INTO named;
    IF named THEN
      RAISE foreign_key_violation USING
        MESSAGE = format('delete on table "%s" removes a row that "%s" names (%s)', TG_TABLE_NAME,
                         referencing_table, referencing),
        CONSTRAINT = format('%s_%s_fkey', referencing_table, referencing),
        TABLE = TG_TABLE_NAME;
    END IF;
  ELSE
    RAISE EXCEPTION 'references_deleted: unknown action %', action;
  END IF;
  RETURN NULL;
END;
$$;

-- statement_lines: its file (CASCADE) and the last action that changed it (SET NULL). A line never
-- moves to another file; every reconciliation action sets its last action, checked when it changes.
CREATE TRIGGER statement_lines_written_references AFTER INSERT ON statement_lines
  REFERENCING NEW TABLE AS written FOR EACH STATEMENT
  EXECUTE FUNCTION check_references('statement_file_id', 'statement_files', 'id',
                                    'last_action_id', 'statement_actions', 'id');
CREATE TRIGGER statement_lines_written_references_updated AFTER UPDATE ON statement_lines
  REFERENCING OLD TABLE AS previous NEW TABLE AS written FOR EACH STATEMENT
  EXECUTE FUNCTION check_references('last_action_id', 'statement_actions', 'id');
CREATE TRIGGER statement_lines_identity BEFORE UPDATE OF id, statement_file_id ON statement_lines FOR EACH ROW
  WHEN (OLD.id IS DISTINCT FROM NEW.id OR OLD.statement_file_id IS DISTINCT FROM NEW.statement_file_id)
  EXECUTE FUNCTION refuse_identity_change('id, statement_file_id');

-- statement_line_matches: its line and its one counterpart (all CASCADE). A change of link deletes and
-- inserts it; only `state` is ever updated. Named to run after the over-match check of the same rows
-- (trigger order is by name): that one locks the payouts and invoices FOR UPDATE first, so this lock
-- is then already held, and two transactions matching one payout never both hold KEY SHARE and wait
-- for each other's FOR UPDATE.
CREATE TRIGGER statement_line_matches_written_references AFTER INSERT ON statement_line_matches
  REFERENCING NEW TABLE AS written FOR EACH STATEMENT
  EXECUTE FUNCTION check_references('statement_line_id', 'statement_lines', 'id',
                                    'sepa_file_id', 'sepa_files', 'id',
                                    'sepa_transaction_id', 'sepa_transactions', 'id',
                                    'payout_id', 'provider_payouts', 'id',
                                    'invoice_id', 'provider_invoices', 'id');
CREATE TRIGGER statement_line_matches_identity
  BEFORE UPDATE OF statement_line_id, sepa_file_id, sepa_transaction_id, payout_id, invoice_id
  ON statement_line_matches FOR EACH ROW
  WHEN (OLD.statement_line_id IS DISTINCT FROM NEW.statement_line_id
        OR OLD.sepa_file_id IS DISTINCT FROM NEW.sepa_file_id
        OR OLD.sepa_transaction_id IS DISTINCT FROM NEW.sepa_transaction_id
        OR OLD.payout_id IS DISTINCT FROM NEW.payout_id
        OR OLD.invoice_id IS DISTINCT FROM NEW.invoice_id)
  EXECUTE FUNCTION refuse_identity_change('statement_line_id, sepa_file_id, sepa_transaction_id, payout_id, invoice_id');

-- statement_line_history: its line (CASCADE) and who acted (a user named by history is never deleted).
-- History is only ever inserted.
CREATE TRIGGER statement_line_history_written_references AFTER INSERT ON statement_line_history
  REFERENCING NEW TABLE AS written FOR EACH STATEMENT
  EXECUTE FUNCTION check_references('statement_line_id', 'statement_lines', 'id', 'actor_id', 'users', 'id');
CREATE TRIGGER statement_line_history_identity BEFORE UPDATE OF statement_line_id, actor_id
  ON statement_line_history FOR EACH ROW
  WHEN (OLD.statement_line_id IS DISTINCT FROM NEW.statement_line_id OR OLD.actor_id IS DISTINCT FROM NEW.actor_id)
  EXECUTE FUNCTION refuse_identity_change('statement_line_id, actor_id');

-- A referenced row's id never changes (the keys refused it while the row was named; nothing changes one).
-- sepa_transactions has had its own since migration 0029.
CREATE TRIGGER statement_files_identity BEFORE UPDATE OF id ON statement_files FOR EACH ROW
  WHEN (OLD.id IS DISTINCT FROM NEW.id) EXECUTE FUNCTION refuse_identity_change('id');
CREATE TRIGGER statement_actions_identity BEFORE UPDATE OF id ON statement_actions FOR EACH ROW
  WHEN (OLD.id IS DISTINCT FROM NEW.id) EXECUTE FUNCTION refuse_identity_change('id');
CREATE TRIGGER sepa_files_identity BEFORE UPDATE OF id ON sepa_files FOR EACH ROW
  WHEN (OLD.id IS DISTINCT FROM NEW.id) EXECUTE FUNCTION refuse_identity_change('id');
CREATE TRIGGER provider_payouts_identity BEFORE UPDATE OF id ON provider_payouts FOR EACH ROW
  WHEN (OLD.id IS DISTINCT FROM NEW.id) EXECUTE FUNCTION refuse_identity_change('id');
CREATE TRIGGER provider_invoices_identity BEFORE UPDATE OF id ON provider_invoices FOR EACH ROW
  WHEN (OLD.id IS DISTINCT FROM NEW.id) EXECUTE FUNCTION refuse_identity_change('id');
CREATE TRIGGER users_identity BEFORE UPDATE OF id ON users FOR EACH ROW
  WHEN (OLD.id IS DISTINCT FROM NEW.id) EXECUTE FUNCTION refuse_identity_change('id');

-- Deletions and truncations of the referenced tables: a pair of statement triggers per reference, named
-- `<table>_<column>_deleted` / `_truncated` (each deletion needs an index on the referencing column for its
-- lookup: tests/db/foreign-key-indexes reads these triggers as it reads the keys).
DO $$
DECLARE
  ref record;
BEGIN
  FOR ref IN SELECT * FROM (VALUES
      ('statement_lines', 'statement_file_id', 'statement_files', 'CASCADE'),
      ('statement_lines', 'last_action_id', 'statement_actions', 'SET NULL'),
      ('statement_line_matches', 'statement_line_id', 'statement_lines', 'CASCADE'),
      ('statement_line_matches', 'sepa_file_id', 'sepa_files', 'CASCADE'),
      ('statement_line_matches', 'sepa_transaction_id', 'sepa_transactions', 'CASCADE'),
      ('statement_line_matches', 'payout_id', 'provider_payouts', 'CASCADE'),
      ('statement_line_matches', 'invoice_id', 'provider_invoices', 'CASCADE'),
      ('statement_line_history', 'statement_line_id', 'statement_lines', 'CASCADE'),
      ('statement_line_history', 'actor_id', 'users', 'NO ACTION')
    ) AS r (referencing_table, referencing, referenced_table, action)
  LOOP
    EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS removed FOR EACH STATEMENT
                      EXECUTE FUNCTION references_deleted(%L, %L, %L, %L)',
                   ref.referencing_table || '_' || ref.referencing || '_deleted', ref.referenced_table,
                   ref.referencing_table, ref.referencing, 'id', ref.action);
    EXECUTE format('CREATE TRIGGER %I AFTER TRUNCATE ON %I FOR EACH STATEMENT
                      EXECUTE FUNCTION references_deleted(%L, %L, %L, %L)',
                   ref.referencing_table || '_' || ref.referencing || '_truncated', ref.referenced_table,
                   ref.referencing_table, ref.referencing, 'id', ref.action);
  END LOOP;
END;
$$;

-- Migration 0029's links left a truncated settlement or transfer table's links behind: refused too.
CREATE TRIGGER sepa_transaction_settlements_settlement_id_truncated AFTER TRUNCATE ON settlements
  FOR EACH STATEMENT
  EXECUTE FUNCTION references_deleted('sepa_transaction_settlements', 'settlement_id', 'id', 'NO ACTION');
CREATE TRIGGER sepa_transaction_settlements_sepa_transaction_id_truncated AFTER TRUNCATE ON sepa_transactions
  FOR EACH STATEMENT
  EXECUTE FUNCTION references_deleted('sepa_transaction_settlements', 'sepa_transaction_id', 'id', 'CASCADE');

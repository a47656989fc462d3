-- The statements of a statement file (issue 27, docs/decisions/0121). A file may hold several statements
-- (an MT940 of two accounts, a camt.053 of two periods); each is one account's statement of one period,
-- identified by the bank (statement id, sequence), with its own balances, and is what line deduplication
-- and continuity are judged on. The lines keep their file and name their statement within it.
--
-- References are native foreign keys (the team moves away from migration 0030's trigger-checked ones).
-- A line names its statement by (file, number) rather than by a new uuid: the import writes one small
-- integer more per line, and the cascade from a deleted statement finds its lines through the indexes
-- that already lead with statement_file_id.

CREATE TABLE bank_statements (
  statement_file_id uuid NOT NULL REFERENCES statement_files (id) ON DELETE CASCADE,
  -- its position in the file, from 0
  number smallint NOT NULL CHECK (number >= 0),
  id uuid NOT NULL DEFAULT gen_random_uuid() UNIQUE,
  -- IBAN in electronic format, else the bank's account identification; null only for a statement
  -- imported before this migration from a file that named no account
  account_iban text CHECK (account_iban <> ''),
  currency text,
  -- the bank's identity of the statement (camt Stmt/Id, MT940 :20:) and its sequence number
  -- (camt ElctrncSeqNb/LglSeqNb, MT940 :28C:); null when the file gives none (CSV)
  bank_statement_id text CHECK (char_length(bank_statement_id) <= 200),
  sequence text CHECK (char_length(sequence) <= 200),
  period_start date NOT NULL,
  period_end date NOT NULL CHECK (period_end >= period_start),
  opening_balance_cents bigint,
  closing_balance_cents bigint,
  -- opening + every entry = closing, as the file states them; null: the statement states no balances
  balance_consistent boolean,
  -- entries read; lines imported; lines recognised as imported before; pending entries not imported
  entry_count integer NOT NULL CHECK (entry_count >= 0),
  line_count integer NOT NULL CHECK (line_count >= 0),
  duplicates_skipped integer NOT NULL DEFAULT 0 CHECK (duplicates_skipped >= 0),
  pending_skipped integer NOT NULL DEFAULT 0 CHECK (pending_skipped >= 0),
  -- each line recognised as imported before: {line, reason, statementFileId} (reason: BANK_REFERENCE,
  -- SAME_STATEMENT, SAME_CONTENT — the rule that recognised it)
  skipped_lines jsonb NOT NULL DEFAULT '[]',
  -- why a statement whose balances do not add up was imported anyway (the admin's words)
  mismatch_note text CHECK (char_length(mismatch_note) BETWEEN 1 AND 500),
  PRIMARY KEY (statement_file_id, number),
  CHECK (mismatch_note IS NULL OR balance_consistent IS FALSE)
);
-- an account's statements by period: overlap, continuity (the previous statement), the accounts list
CREATE INDEX bank_statements_account_period_idx ON bank_statements (account_iban, period_start, period_end);

-- The lines name their statement. Null only for lines written without an import (test fixtures, which
-- insert lines directly): every import and every line migrated below has one.
ALTER TABLE statement_lines
  ADD COLUMN statement_number smallint,
  ADD CONSTRAINT statement_lines_statement_fkey FOREIGN KEY (statement_file_id, statement_number)
    REFERENCES bank_statements (statement_file_id, number) ON DELETE CASCADE;

-- A line key is no longer unique: two identical payments in two statements of one account that do not
-- overlap are two lines with one content key (docs/decisions/0121). The import keeps each line once
-- under its lock; the index answers "which of these keys" as the unique one did.
ALTER TABLE statement_lines DROP CONSTRAINT statement_lines_dedup_key_key;
CREATE INDEX statement_lines_dedup_key_idx ON statement_lines (dedup_key);

-- Every existing file is one statement: its account (in the canonical form keys use, line-key.ts's
-- `canonicalAccount`) and balances, the period of its lines.
INSERT INTO bank_statements (statement_file_id, number, account_iban, currency, period_start, period_end,
                             opening_balance_cents, closing_balance_cents, balance_consistent, entry_count,
                             line_count, duplicates_skipped)
SELECT f.id, 0, nullif(upper(regexp_replace(f.account_iban, '[[:space:]-]+', '', 'g')), ''), f.currency,
       coalesce(l.first_day, f.imported_at::date), coalesce(l.last_day, f.imported_at::date),
       f.opening_balance_cents, f.closing_balance_cents,
       coalesce(f.balance_consistent,
                CASE WHEN f.opening_balance_cents IS NOT NULL AND f.closing_balance_cents IS NOT NULL
                     THEN f.opening_balance_cents + l.total = f.closing_balance_cents END),
       greatest(f.entry_count, l.lines), l.lines, f.duplicates_skipped
  FROM statement_files f
  CROSS JOIN LATERAL (
    SELECT min(bank_date) AS first_day, max(bank_date) AS last_day, count(*)::int AS lines,
           coalesce(sum(bank_amount_cents), 0) AS total
      FROM statement_lines WHERE statement_file_id = f.id) l;
UPDATE statement_lines SET statement_number = 0;

-- Lines with a bank reference of their own get the v2 key (domain/statements/line-key.ts,
-- `referenceLineKey`): SHA-256 of 'v2:bank-reference', account, booking date, amount, canonical
-- reference and occurrence, joined with U+001F. The canonical text and the placeholders are
-- `bankReferenceOf`'s. Lines without one keep their key: it is the v2 content key.
WITH referenced AS (
  SELECT l.id, b.account_iban, l.bank_date, l.bank_amount_cents, l.line_number, l.statement_file_id,
         btrim(regexp_replace(l.bank_reference, '[[:space:][:cntrl:]]+', ' ', 'g'), ' ') AS reference
    FROM statement_lines l
    JOIN bank_statements b ON b.statement_file_id = l.statement_file_id AND b.number = l.statement_number
   WHERE l.bank_reference IS NOT NULL
), usable AS (
  SELECT r.*, row_number() OVER (PARTITION BY r.statement_file_id, r.bank_date, r.bank_amount_cents, r.reference
                                 ORDER BY r.line_number, r.id) - 1 AS occurrence
    FROM referenced r
   WHERE r.reference <> ''
     AND upper(r.reference) NOT IN ('NONREF', 'NOTPROVIDED', 'NOT PROVIDED', 'NONE', 'N/A', 'NA', '-', '0')
)
UPDATE statement_lines l
   SET dedup_key = encode(sha256(convert_to(concat_ws(E'\u001f', 'v2:bank-reference',
         coalesce(u.account_iban, ''),
         u.bank_date::text, u.bank_amount_cents::text, u.reference, u.occurrence::text), 'UTF8')), 'hex')
  FROM usable u
 WHERE u.id = l.id;

-- The files list's counts without counting lines on every call (issue 27: ≤ 50 ms at 1,000,000 lines; it
-- counted every line of every listed file). Each statement that inserts, deletes or changes lines appends
-- one row per file with what it changed (lines, lines MATCHED or IGNORED, their sum); the list adds up a
-- file's rows — a handful per import or action, not one per line. Append-only, so writers never lock the
-- file's row: the reconciliation's actions hold it FOR SHARE (line-state.ts) and two of them updating it
-- would deadlock.
CREATE TABLE statement_file_line_counts (
  statement_file_id uuid NOT NULL REFERENCES statement_files (id) ON DELETE CASCADE,
  lines integer NOT NULL,
  done integer NOT NULL,
  sum_cents bigint NOT NULL
);
CREATE INDEX statement_file_line_counts_file_idx ON statement_file_line_counts (statement_file_id);

CREATE FUNCTION statement_lines_counted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO statement_file_line_counts (statement_file_id, lines, done, sum_cents)
    SELECT n.statement_file_id, count(*), count(*) FILTER (WHERE n.status IN ('MATCHED', 'IGNORED')),
           sum(n.bank_amount_cents)
      FROM new_lines n
     -- a missing file is refused by the references' own trigger (migration 0030), with its message
     WHERE EXISTS (SELECT FROM statement_files f WHERE f.id = n.statement_file_id)
     GROUP BY n.statement_file_id;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO statement_file_line_counts (statement_file_id, lines, done, sum_cents)
    SELECT o.statement_file_id, -count(*), -count(*) FILTER (WHERE o.status IN ('MATCHED', 'IGNORED')),
           -sum(o.bank_amount_cents)
      FROM old_lines o
     -- a file deleted by this statement (its lines with it) has nothing left to count
     WHERE EXISTS (SELECT FROM statement_files f WHERE f.id = o.statement_file_id)
     GROUP BY o.statement_file_id;
  ELSE
    INSERT INTO statement_file_line_counts (statement_file_id, lines, done, sum_cents)
    SELECT c.statement_file_id, 0, sum(c.done), sum(c.cents)
      FROM (SELECT n.statement_file_id, (n.status IN ('MATCHED', 'IGNORED'))::int AS done, n.bank_amount_cents AS cents
              FROM new_lines n
            UNION ALL
            SELECT o.statement_file_id, -(o.status IN ('MATCHED', 'IGNORED'))::int, -o.bank_amount_cents
              FROM old_lines o) c
     GROUP BY c.statement_file_id
    HAVING sum(c.done) <> 0 OR sum(c.cents) <> 0;
  END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER statement_lines_counted_inserted AFTER INSERT ON statement_lines
  REFERENCING NEW TABLE AS new_lines FOR EACH STATEMENT EXECUTE FUNCTION statement_lines_counted();
CREATE TRIGGER statement_lines_counted_deleted AFTER DELETE ON statement_lines
  REFERENCING OLD TABLE AS old_lines FOR EACH STATEMENT EXECUTE FUNCTION statement_lines_counted();
CREATE TRIGGER statement_lines_counted_updated AFTER UPDATE ON statement_lines
  REFERENCING OLD TABLE AS old_lines NEW TABLE AS new_lines FOR EACH STATEMENT EXECUTE FUNCTION statement_lines_counted();

INSERT INTO statement_file_line_counts (statement_file_id, lines, done, sum_cents)
SELECT statement_file_id, count(*), count(*) FILTER (WHERE status IN ('MATCHED', 'IGNORED')), sum(bank_amount_cents)
  FROM statement_lines GROUP BY statement_file_id;

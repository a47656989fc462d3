-- Issue 32, decision 0177: a suggestion's why says when another line of the same file, from the same payer's
-- account, pays the counterpart's party (server/statements/suggestion-evidence.ts). Each page of lines asks
-- for its suggested lines' accounts; this index finds a file's lines of an account without reading the file.
-- Partial: most lines (CSV exports, card payouts, fees) print no payer's account.
CREATE INDEX statement_lines_file_account_idx ON statement_lines (statement_file_id, counterparty_iban)
  WHERE counterparty_iban IS NOT NULL;

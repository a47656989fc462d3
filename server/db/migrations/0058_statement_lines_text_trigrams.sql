-- Issue 32, decision 0172: the reconciliation table's `text` filter ("the bank's text contains", the bulk
-- ignore's filter, decision 0161) is `lower(description) LIKE '%…%' OR lower(counterparty_name) LIKE '%…%'`,
-- which no B-tree serves: at 1,000,000 lines a word no line prints walked the whole table by date (0.5–1.2 s
-- for a first page). Trigram GIN indexes on the same two expressions let PostgreSQL read only the lines that
-- hold the word's trigrams (under 1 ms for a rare word, ~60 ms for one on a third of the lines, measured on a
-- copy of the 1M bench database). pg_trgm is a trusted extension (PostgreSQL 13+): a database owner may create
-- it; PGlite loads it when the database opens (server/db/client.ts). A word of fewer than three characters
-- has no trigram and is still read by date, as before.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE INDEX statement_lines_description_trgm_idx ON statement_lines USING gin (lower(description) gin_trgm_ops);
CREATE INDEX statement_lines_counterparty_trgm_idx ON statement_lines USING gin (lower(counterparty_name) gin_trgm_ops);

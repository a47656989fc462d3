-- Issue 9, item 3 (docs/decisions/0016): a password check is reserved before it runs, per e-mail and
-- per client address, under a transaction-scoped advisory lock, so simultaneous requests cannot all
-- pass the check. succeeded IS NULL marks a reservation whose password is being checked; it counts
-- like a failure until it is settled (or leaves the 15-minute window).
ALTER TABLE login_attempts ALTER COLUMN succeeded DROP NOT NULL;
ALTER TABLE login_attempts ADD COLUMN client_address text;
-- The per-address limit reads the last 100 attempts of one address.
CREATE INDEX login_attempts_address_time_idx ON login_attempts (client_address, attempted_at);
-- Rows older than the window are purged on write, oldest first.
CREATE INDEX login_attempts_time_idx ON login_attempts (attempted_at);

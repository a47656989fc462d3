-- A session's last request, so it ends after an idle time as well as after its lifetime
-- (docs/decisions/0126). Sessions from before start their idle time now; their lifetime is counted
-- from created_at against the configured one, so the old 30-day sessions end with the new limit too.
ALTER TABLE sessions ADD COLUMN last_seen_at timestamptz;
UPDATE sessions SET last_seen_at = now() WHERE last_seen_at IS NULL;
ALTER TABLE sessions ALTER COLUMN last_seen_at SET NOT NULL;

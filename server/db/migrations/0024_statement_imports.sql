-- Statement imports as jobs (issue 12, docs/decisions/0097). The upload is checked and answered at
-- once; the lines, the file, the matching and its consequences are then written in ONE transaction, so
-- a process killed in the middle leaves only this row, which the lease sweep marks FAILED.

CREATE TABLE statement_import_jobs (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  requested_by uuid NOT NULL REFERENCES users (id),
  file_name text NOT NULL,
  -- the uploaded bytes' hash: one live or finished import per content (a FAILED one can be retried)
  sha256 text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  status text NOT NULL DEFAULT 'RUNNING' CHECK (status IN ('RUNNING', 'DONE', 'FAILED')),
  phase text NOT NULL DEFAULT 'waiting' CHECK (phase IN ('waiting', 'importing', 'matching', 'done')),
  done integer NOT NULL DEFAULT 0 CHECK (done >= 0),
  total integer NOT NULL CHECK (total >= 0),
  -- {statementFileId, newLines, duplicatesSkipped, matched, suggested, unmatched} once DONE
  result jsonb,
  error_code text,
  -- the instance running it, and until when its claim holds without a heartbeat
  runner_id text,
  lease_expires_at timestamptz,
  created_at timestamptz NOT NULL,
  finished_at timestamptz,
  CHECK ((status = 'RUNNING') = (runner_id IS NOT NULL AND lease_expires_at IS NOT NULL)),
  CHECK ((status = 'DONE') = (result IS NOT NULL)),
  CHECK ((status = 'FAILED') = (error_code IS NOT NULL))
);
-- two uploads of the same bytes at once: the second is refused by the database, not by timing
CREATE UNIQUE INDEX statement_import_jobs_one_per_content ON statement_import_jobs (sha256) WHERE status <> 'FAILED';
CREATE INDEX statement_import_jobs_running_idx ON statement_import_jobs (lease_expires_at) WHERE status = 'RUNNING';

-- What the preview showed and the import kept: every parsed entry (duplicates of earlier files
-- included), how many of them were already imported, and whether the file's own balances add up.
ALTER TABLE statement_files
  ADD COLUMN entry_count integer NOT NULL DEFAULT 0 CHECK (entry_count >= 0),
  ADD COLUMN duplicates_skipped integer NOT NULL DEFAULT 0 CHECK (duplicates_skipped >= 0),
  ADD COLUMN balance_consistent boolean;

-- "already imported from which file": the lines of a set of keys, answered by the unique index on
-- dedup_key; nothing else is needed.

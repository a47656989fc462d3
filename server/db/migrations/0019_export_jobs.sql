-- Exports as jobs (docs/decisions/0075–0077): who asked for what, its progress, the instance that runs
-- it under a lease, and the file it produced. Replaces the unused `exports` table of 0002.

DROP TABLE exports;

CREATE TABLE export_jobs (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  requested_by uuid NOT NULL REFERENCES users (id),
  type text NOT NULL CHECK (type IN ('CASES', 'STATS', 'USERS', 'CUSTOMERS', 'PROFESSIONALS')),
  -- {dateField, startDate, endDate}: what the rows were chosen by, as the admin gave it
  filters jsonb NOT NULL,
  format text NOT NULL CHECK (format IN ('CSV', 'XLSX')),
  locale text NOT NULL CHECK (locale IN ('pt-PT', 'en-GB')),
  status text NOT NULL DEFAULT 'queued'
    CHECK (status IN ('queued', 'running', 'done', 'failed', 'cancelled', 'expired')),
  rows_written integer NOT NULL DEFAULT 0 CHECK (rows_written >= 0),
  estimated_total integer NOT NULL CHECK (estimated_total >= 0),
  total_is_estimate boolean NOT NULL DEFAULT false,
  -- where export-file.ts put the bytes; null until done and again once expired
  file_ref text,
  file_name text,
  size_bytes bigint CHECK (size_bytes IS NULL OR size_bytes >= 0),
  error_reason text,
  created_at timestamptz NOT NULL,
  started_at timestamptz,
  finished_at timestamptz,
  expires_at timestamptz NOT NULL,
  -- the instance running it and until when its claim holds without a heartbeat
  runner_id text,
  lease_expires_at timestamptz,
  CHECK ((status = 'running') = (runner_id IS NOT NULL AND lease_expires_at IS NOT NULL)),
  CHECK (status <> 'done' OR (file_ref IS NOT NULL AND size_bytes IS NOT NULL))
);
-- "your exports", newest first
CREATE INDEX export_jobs_requester_idx ON export_jobs (requested_by, created_at DESC, id DESC);
-- the runners' queue and lease sweep
CREATE INDEX export_jobs_queue_idx ON export_jobs (created_at, id) WHERE status = 'queued';
CREATE INDEX export_jobs_running_idx ON export_jobs (lease_expires_at) WHERE status = 'running';
CREATE INDEX export_jobs_expiry_idx ON export_jobs (expires_at);

-- The users export reads customers and professionals together in date order: without these, each
-- keyset batch over two roles re-sorts every remaining row of the range.
CREATE INDEX users_people_created_idx ON users (created_at, id) WHERE role <> 'ADMIN';
CREATE INDEX users_people_last_active_idx ON users (last_active_at, id) WHERE role <> 'ADMIN';

-- Issue 31, decision 0163 (its dated section of 2026-11-28): a big SAF-T's job waits for its check against
-- the official XSD in the phase `checking`, and a job failed on the schema keeps the schema's complaints.
-- Both were held in the memory of the instance running the job, so another instance answering the same job
-- (several stateless instances on one PostgreSQL, DESIGN §4) said `waiting` and lost the complaints, and a
-- restart lost them too. Now they are the job's row: the phase in its check, the complaints in
-- `error_facts` (the refusal's facts, as the upload's 422 answers them: `schemaErrors`, `line`).
ALTER TABLE statement_import_jobs DROP CONSTRAINT statement_import_jobs_phase_check;
ALTER TABLE statement_import_jobs ADD CONSTRAINT statement_import_jobs_phase_check
  CHECK (phase IN ('checking', 'waiting', 'importing', 'matching', 'linking', 'done'));
ALTER TABLE statement_import_jobs ADD COLUMN error_facts jsonb
  CHECK (error_facts IS NULL OR (error_code IS NOT NULL AND jsonb_typeof(error_facts) = 'object'));

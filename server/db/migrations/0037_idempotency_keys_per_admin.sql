-- An Idempotency-Key belongs to the admin who sent it (issue 28, docs/decisions/0125): a second admin
-- reusing another's key got the first admin's stored answer. Keys are now unique per admin and per
-- route (scope). The product always stored the admin; a row without one could answer nobody now.
DELETE FROM idempotent_requests WHERE actor_id IS NULL;
ALTER TABLE idempotent_requests ALTER COLUMN actor_id SET NOT NULL;
ALTER TABLE idempotent_requests DROP CONSTRAINT idempotent_requests_pkey;
-- The admin first: the key also serves the foreign key to users.
ALTER TABLE idempotent_requests ADD PRIMARY KEY (actor_id, scope, idempotency_key);

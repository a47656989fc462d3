-- Users' search and keyset indexes, areas of interest, share-link occurrences, exports.
-- Plain btree indexes (lower() / text_pattern_ops) because PGlite has no pg_trgm without an extra package.

CREATE INDEX users_role_created_idx ON users (role, created_at, id);
CREATE INDEX users_role_status_created_idx ON users (role, status, created_at, id);
CREATE INDEX users_role_last_active_idx ON users (role, last_active_at, id);
CREATE INDEX users_role_name_idx ON users (role, lower(name), id);
CREATE INDEX users_role_email_idx ON users (role, lower(email), id);
CREATE INDEX users_email_prefix_idx ON users (lower(email) text_pattern_ops);
CREATE INDEX users_name_prefix_idx ON users (lower(name) text_pattern_ops);
CREATE INDEX users_full_name_prefix_idx ON users (lower(full_name) text_pattern_ops);
CREATE INDEX users_phone_idx ON users (phone_number text_pattern_ops);
CREATE INDEX users_tax_number_idx ON users (tax_number);
CREATE INDEX users_college_number_idx ON users (college_number);

CREATE TABLE interest_areas (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL CHECK (btrim(name) <> '' AND char_length(name) <= 120),
  created_at timestamptz NOT NULL DEFAULT now()
);
-- "Cardiologia", " cardiologia " and "CARDIOLOGIA" are one area (409 AREA_OF_INTEREST_ALREADY_EXISTS).
CREATE UNIQUE INDEX interest_areas_name_key ON interest_areas (lower(regexp_replace(btrim(name), '\s+', ' ', 'g')));

CREATE TABLE professional_interest_areas (
  professional_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  area_id uuid NOT NULL REFERENCES interest_areas (id) ON DELETE CASCADE,
  PRIMARY KEY (professional_id, area_id)
);
CREATE INDEX professional_interest_areas_area_idx ON professional_interest_areas (area_id, professional_id);

-- Every use of a professional's share link; the stats export (admin/share-link-occurrences) reads it.
CREATE TABLE share_link_occurrences (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  professional_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- the link as it was used; the professional may change theirs later
  share_link_id text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('VISIT', 'SIGNUP', 'CASE')),
  customer_id uuid REFERENCES users (id) ON DELETE SET NULL,
  occurred_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX share_link_occurrences_time_idx ON share_link_occurrences (occurred_at, id);
CREATE INDEX share_link_occurrences_professional_idx ON share_link_occurrences (professional_id, occurred_at);

CREATE TABLE exports (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  type text NOT NULL CHECK (type IN ('CASES', 'STATS', 'USERS', 'CUSTOMERS', 'PROFESSIONALS')),
  date_field text NOT NULL CHECK (date_field IN ('CREATED', 'LAST_ACTIVE')),
  start_date date NOT NULL,
  end_date date CHECK (end_date IS NULL OR end_date >= start_date),
  requested_by uuid REFERENCES users (id),
  file_id uuid REFERENCES stored_files (id),
  row_count integer CHECK (row_count IS NULL OR row_count >= 0),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX exports_created_idx ON exports (created_at, id);

-- User search at 1,000,000 rows (docs/decisions/0040): one word-prefix index for `q`, and keyset
-- indexes for every sortable column with and without the role filter.

-- Accents folded, lower-cased, split on spaces: name, full name, e-mail (whole and by part), phone
-- (national and with the country code, digits only), tax, college and id card numbers, share link id
-- (whole and by part). array_to_tsvector keeps every word verbatim (no parser, no stemming), so the
-- query side builds the same words and asks for `'word':*` prefixes, which GIN answers without
-- pg_trgm (not available in PGlite).
ALTER TABLE users ADD COLUMN search_words tsvector GENERATED ALWAYS AS (
  array_to_tsvector(array_remove(regexp_split_to_array(lower(translate(
    coalesce(name, '') || ' ' || coalesce(full_name, '') || ' '
    || regexp_replace(coalesce(name, '') || ' ' || coalesce(full_name, ''), '[-''.]+', ' ', 'g') || ' '
    || email || ' ' || regexp_replace(email, '[@._+-]+', ' ', 'g') || ' '
    || coalesce(regexp_replace(phone_number, '[^0-9]', '', 'g'), '') || ' '
    || coalesce(regexp_replace(coalesce(phone_country_code, '') || phone_number, '[^0-9]', '', 'g'), '') || ' '
    || coalesce(tax_number, '') || ' ' || coalesce(college_number, '') || ' ' || coalesce(id_card_number, '') || ' '
    || coalesce(share_link_id, '') || ' ' || coalesce(regexp_replace(share_link_id, '[-_.]+', ' ', 'g'), ''),
    'ÁÀÂÃÄÉÈÊËÍÌÎÏÓÒÔÕÖÚÙÛÜÇÑáàâãäéèêëíìîïóòôõöúùûüçñ',
    'aaaaaeeeeiiiiooooouuuucnaaaaaeeeeiiiiooooouuuucn'
  )), '[[:space:]]+'), ''))
) STORED;
CREATE INDEX users_search_words_idx ON users USING gin (search_words);

-- Keyset orders are (sort value, id). Lists without a role filter need their own indexes; never-active
-- users sort as -infinity so the keyset comparison never meets a NULL.
CREATE INDEX users_created_id_idx ON users (created_at, id);
CREATE INDEX users_name_id_idx ON users (lower(name), id);
CREATE INDEX users_email_id_idx ON users (lower(email), id);
CREATE INDEX users_last_active_id_idx ON users ((coalesce(last_active_at, '-infinity'::timestamptz)), id);
CREATE INDEX users_role_last_active_key_idx ON users (role, (coalesce(last_active_at, '-infinity'::timestamptz)), id);

-- Verification links: only the sha256 of the token is stored; a new link revokes the older ones.
CREATE TABLE email_verification_tokens (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  token_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  revoked_at timestamptz
);
CREATE INDEX email_verification_tokens_user_idx ON email_verification_tokens (user_id, created_at);

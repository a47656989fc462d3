-- Measured at 1,000,000 users (bench/results/users-search.md, docs/decisions/0043):
-- 1. `joana mart` merged every GIN posting list starting with `mart` (~91,000 rows, 30–60 ms). Each
--    word's leading letters are now also indexed as prefixes of 2–8 letters, so a typed word of 2–8
--    letters is one exact lexeme (an intersection of two posting lists, ~8 ms).
-- 2. A common prefix sorted by name or e-mail read one heap page per match (`joa`: 40,000 matches,
--    250–300 ms) or walked the sort index past 300,000 rows. user_search_words holds each user's
--    letter-led words with the sort keys, so the matches of a prefix are one index range, read
--    index-only and sorted (~50 ms for 40,000).

-- The words of a user, accent-folded and lower-cased; the same list as migration 0011, now named once.
CREATE FUNCTION user_search_word_list(
  name text, full_name text, email text, phone_number text, phone_country_code text,
  tax_number text, college_number text, id_card_number text, share_link_id text
) RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN array_remove(regexp_split_to_array(lower(translate(
    coalesce(name, '') || ' ' || coalesce(full_name, '') || ' '
    || regexp_replace(coalesce(name, '') || ' ' || coalesce(full_name, ''), '[-''.]+', ' ', 'g') || ' '
    || regexp_replace(split_part(email, '@', 1), '[._+-]+', ' ', 'g') || ' '
    || coalesce(regexp_replace(phone_number, '[^0-9]', '', 'g'), '') || ' '
    || coalesce(regexp_replace(coalesce(phone_country_code, '') || phone_number, '[^0-9]', '', 'g'), '') || ' '
    || coalesce(tax_number, '') || ' ' || coalesce(college_number, '') || ' ' || coalesce(id_card_number, '') || ' '
    || coalesce(share_link_id, '') || ' ' || coalesce(regexp_replace(share_link_id, '[-_.]+', ' ', 'g'), ''),
    'ÁÀÂÃÄÉÈÊËÍÌÎÏÓÒÔÕÖÚÙÛÜÇÑáàâãäéèêëíìîïóòôõöúùûüçñ',
    'aaaaaeeeeiiiiooooouuuucnaaaaaeeeeiiiiooooouuuucn'
  )), '[[:space:]]+'), '');

-- The words plus the 2–8 letter prefixes of each word's leading run of letters a–z, the whole run
-- included (`nba` must find `nba1`; array_to_tsvector drops the duplicate when the run is the word).
-- The API's rule (users-search.ts parseSearch) must stay its mirror: a typed word of 2–8 letters a–z
-- is looked up exactly, anything else as a prefix (`:*`).
CREATE FUNCTION search_word_prefixes(words text[]) RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN words || ARRAY(
  SELECT left(w, n) FROM unnest(words) AS w,
         generate_series(2, least(8, length(substring(w FROM '^[a-z]*')))) AS n
);

ALTER TABLE users DROP COLUMN search_words;
ALTER TABLE users ADD COLUMN search_words tsvector GENERATED ALWAYS AS (
  array_to_tsvector(search_word_prefixes(user_search_word_list(
    name, full_name, email, phone_number, phone_country_code,
    tax_number, college_number, id_card_number, share_link_id
  )))
) STORED;
CREATE INDEX users_search_words_idx ON users USING gin (search_words);
ALTER TABLE users ALTER COLUMN search_words SET STATISTICS 1000;

-- One row per user and letter-led word, with the list's categorical filters, the creation time and the
-- two text sort keys; kept by triggers. Last activity (it moves at every sign-in) and areas of interest
-- are not here: with a word search sorted by name or e-mail they take the GIN plans (users-search.ts).
-- `word` is in C collation so `LIKE 'joa%'` is an index range whatever the database's collation;
-- the sort keys keep the default collation so they order exactly as lower(users.name/email) do.
CREATE TABLE user_search_words (
  word text COLLATE "C" NOT NULL,
  user_id uuid NOT NULL,
  role text NOT NULL,
  status text NOT NULL,
  country text,
  gender text,
  created_at timestamptz NOT NULL,
  name_key text,
  email_key text
);

-- A user's rows of the table: the triggers and the first fill share it.
CREATE FUNCTION user_search_word_rows(u users) RETURNS SETOF user_search_words LANGUAGE sql STABLE AS $$
  SELECT DISTINCT w, u.id, u.role, u.status, u.country, u.gender, u.created_at, lower(u.name), lower(u.email)
    FROM unnest(user_search_word_list(u.name, u.full_name, u.email, u.phone_number, u.phone_country_code,
                                      u.tax_number, u.college_number, u.id_card_number, u.share_link_id)) AS w
   WHERE w ~ '^[a-z]'
$$;

CREATE FUNCTION user_search_words_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO user_search_words SELECT r.* FROM added n, user_search_word_rows(n) AS r;
  RETURN NULL;
END $$;

-- Logins touch last_active_at on every request burst; only changes to what the table holds rewrite it.
CREATE FUNCTION user_search_words_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH changed AS (
    SELECT n.id FROM added n JOIN removed o ON o.id = n.id
     WHERE n.search_words IS DISTINCT FROM o.search_words OR n.role IS DISTINCT FROM o.role
        OR n.status IS DISTINCT FROM o.status OR n.country IS DISTINCT FROM o.country
        OR n.gender IS DISTINCT FROM o.gender OR n.created_at IS DISTINCT FROM o.created_at
        OR n.name IS DISTINCT FROM o.name
        OR n.email IS DISTINCT FROM o.email
  ), gone AS (
    DELETE FROM user_search_words s USING changed c WHERE s.user_id = c.id
  )
  INSERT INTO user_search_words
  SELECT r.* FROM added n JOIN changed c ON c.id = n.id, user_search_word_rows(n) AS r;
  RETURN NULL;
END $$;

CREATE FUNCTION user_search_words_remove() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM user_search_words s USING removed o WHERE s.user_id = o.id;
  RETURN NULL;
END $$;

CREATE TRIGGER user_search_words_on_insert AFTER INSERT ON users
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION user_search_words_add();
CREATE TRIGGER user_search_words_on_update AFTER UPDATE ON users
  REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION user_search_words_change();
CREATE TRIGGER user_search_words_on_delete AFTER DELETE ON users
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION user_search_words_remove();

INSERT INTO user_search_words SELECT r.* FROM users u, user_search_word_rows(u) AS r;

-- Built after the fill: one sort instead of three million insertions.
-- Role leads: every list screen but one filters by role, and without a role filter the API asks for
-- all three (three index ranges instead of a filter over the other roles' rows).
CREATE INDEX user_search_words_role_word_idx ON user_search_words (role, word)
  INCLUDE (status, country, gender, created_at, name_key, email_key, user_id);
CREATE INDEX user_search_words_user_idx ON user_search_words (user_id);

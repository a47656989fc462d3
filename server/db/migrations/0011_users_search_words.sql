-- Measured at 1,000,000 users (bench/results/users-search.md): whole e-mail addresses as words made
-- ~1,000,000 distinct lexemes, so a prefix such as `joao` walked tens of thousands of GIN entries
-- (45 ms). E-mails are now searched by prefix through the btree users_email_prefix_idx (0002) and
-- only their local-part pieces stay words; the domain pieces (`gmail`, `com`) matched nearly everyone.
ALTER TABLE users DROP COLUMN search_words;
ALTER TABLE users ADD COLUMN search_words tsvector GENERATED ALWAYS AS (
  array_to_tsvector(array_remove(regexp_split_to_array(lower(translate(
    coalesce(name, '') || ' ' || coalesce(full_name, '') || ' '
    || regexp_replace(coalesce(name, '') || ' ' || coalesce(full_name, ''), '[-''.]+', ' ', 'g') || ' '
    || regexp_replace(split_part(email, '@', 1), '[._+-]+', ' ', 'g') || ' '
    || coalesce(regexp_replace(phone_number, '[^0-9]', '', 'g'), '') || ' '
    || coalesce(regexp_replace(coalesce(phone_country_code, '') || phone_number, '[^0-9]', '', 'g'), '') || ' '
    || coalesce(tax_number, '') || ' ' || coalesce(college_number, '') || ' ' || coalesce(id_card_number, '') || ' '
    || coalesce(share_link_id, '') || ' ' || coalesce(regexp_replace(share_link_id, '[-_.]+', ' ', 'g'), ''),
    'ÁÀÂÃÄÉÈÊËÍÌÎÏÓÒÔÕÖÚÙÛÜÇÑáàâãäéèêëíìîïóòôõöúùûüçñ',
    'aaaaaeeeeiiiiooooouuuucnaaaaaeeeeiiiiooooouuuucn'
  )), '[[:space:]]+'), ''))
) STORED;
CREATE INDEX users_search_words_idx ON users USING gin (search_words);
-- Common name prefixes (`mar` → Maria, Mariana, Marco, Martins…) are estimated from the most common
-- words; the default sample kept too few of them and answered 16,000 for 160,000 matches.
ALTER TABLE users ALTER COLUMN search_words SET STATISTICS 1000;

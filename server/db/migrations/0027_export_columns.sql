-- Two things the exports read (issue 13): a doctor's interest areas kept as a column, and the
-- function that finishes an XLSX text cell in SQL.
--
-- A doctor's interest areas as the exports write them (docs/decisions/0104): the names joined with ', '
-- in name order, NULL when there are none. Kept by triggers on every change of
-- `professional_interest_areas` and of an area's name, so whoever writes those tables (the API, the
-- seed, a cascade from a deleted user or area, SQL by hand) keeps it true. The export reads it instead
-- of a lateral join per row (~3 µs of PostgreSQL's ~10 µs a row at 1,000,000 users).

ALTER TABLE users ADD COLUMN interest_area_names text;

-- Recomputes the names of the given professionals from the links and the areas' names.
CREATE FUNCTION interest_area_names_refresh(professionals uuid[]) RETURNS void LANGUAGE sql AS $$
  UPDATE users u SET interest_area_names = names.value
    FROM (SELECT p.id, (SELECT string_agg(a.name, ', ' ORDER BY a.name)
                          FROM professional_interest_areas pia JOIN interest_areas a ON a.id = pia.area_id
                         WHERE pia.professional_id = p.id) AS value
            FROM unnest(professionals) AS p(id)) names
   WHERE u.id = names.id AND u.interest_area_names IS DISTINCT FROM names.value;
$$;

CREATE FUNCTION interest_area_names_on_links() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM interest_area_names_refresh(ARRAY(SELECT DISTINCT professional_id FROM added));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM interest_area_names_refresh(ARRAY(SELECT DISTINCT professional_id FROM removed));
  ELSE
    PERFORM interest_area_names_refresh(ARRAY(
      SELECT professional_id FROM added UNION SELECT professional_id FROM removed));
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER interest_area_names_on_insert AFTER INSERT ON professional_interest_areas
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION interest_area_names_on_links();
CREATE TRIGGER interest_area_names_on_update AFTER UPDATE ON professional_interest_areas
  REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION interest_area_names_on_links();
-- Also fired by the cascades from a deleted user or area.
CREATE TRIGGER interest_area_names_on_delete AFTER DELETE ON professional_interest_areas
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION interest_area_names_on_links();

CREATE FUNCTION interest_area_names_on_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE users SET interest_area_names = NULL WHERE interest_area_names IS NOT NULL;
  RETURN NULL;
END $$;

CREATE TRIGGER interest_area_names_on_truncate AFTER TRUNCATE ON professional_interest_areas
  FOR EACH STATEMENT EXECUTE FUNCTION interest_area_names_on_truncate();

-- A renamed area renames it in every one of its doctors' lists.
CREATE FUNCTION interest_area_names_on_rename() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM interest_area_names_refresh(ARRAY(
    SELECT DISTINCT pia.professional_id FROM added n JOIN removed o ON o.id = n.id
      JOIN professional_interest_areas pia ON pia.area_id = n.id
     WHERE n.name IS DISTINCT FROM o.name));
  RETURN NULL;
END $$;

CREATE TRIGGER interest_area_names_on_area_update AFTER UPDATE ON interest_areas
  REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION interest_area_names_on_rename();

UPDATE users u SET interest_area_names = names.value
  FROM (SELECT pia.professional_id, string_agg(a.name, ', ' ORDER BY a.name) AS value
          FROM professional_interest_areas pia JOIN interest_areas a ON a.id = pia.area_id
         GROUP BY pia.professional_id) names
 WHERE u.id = names.professional_id;

-- An XLSX export's text cell as the domain's writer makes it (docs/decisions/0105,
-- domain/export-files/xlsx.ts `xlsxCellText` and `inlineString`): the characters XML 1.0 forbids
-- dropped, a formula start neutralised with `'`, clipped to Excel's 32,767 UTF-16 units (a character
-- beyond the BMP counts two and is never split), escaped (`_xHHHH_` first, then `&`, `<`, `>`, CR), in a
-- `<t>` that keeps leading or trailing white space. The export calls it only for rows whose text needs
-- more than the neutralising (server/exports/xlsx-sql.ts).
CREATE FUNCTION export_xlsx_text(value text) RETURNS text LANGUAGE plpgsql IMMUTABLE STRICT AS $$
DECLARE
  t text := regexp_replace(value, E'[\x01-\x08\x0b\x0c\x0e-\x1f\uFFFE\uFFFF]', '', 'g');
  low int;
  high int;
  middle int;
BEGIN
  IF ascii(t) IN (61, 43, 45, 64, 9, 13) THEN
    t := '''' || t;
  END IF;
  IF length(t) > 16383
     AND length(t) + length(regexp_replace(t, E'[^\U00010000-\U0010FFFF]', '', 'g')) > 32767 THEN
    -- The longest prefix whose UTF-16 length fits.
    low := 0;
    high := least(length(t), 32767);
    WHILE low < high LOOP
      middle := (low + high + 1) / 2;
      IF middle + length(regexp_replace(left(t, middle), E'[^\U00010000-\U0010FFFF]', '', 'g')) <= 32767 THEN
        low := middle;
      ELSE
        high := middle - 1;
      END IF;
    END LOOP;
    t := left(t, low);
  END IF;
  RETURN concat(
    CASE WHEN t ~ E'^[ \t\n\r]|[ \t\n\r]$' THEN '<t xml:space="preserve">' ELSE '<t>' END,
    replace(replace(replace(replace(
      regexp_replace(t, '_(x[0-9A-Fa-f]{4}_)', '_x005F_\1', 'g'),
      '&', '&amp;'), '<', '&lt;'), '>', '&gt;'), E'\r', '&#13;'),
    '</t>');
END $$;

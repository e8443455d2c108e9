-- Search at a million items (ADR 0036).
--
-- 1. Narrow rows: an entry's text and its vector leave the row for the TOAST table as soon as the
--    row passes 256 bytes (not 2 kB), so a scan of names, access lists or paths reads ~30 entries
--    per page instead of ~4, and rewriting an access list copies a pointer, not the text.
--    What every search reads on the row (the name, its words, the access list, the path) stays
--    in it: stored MAIN, it is compressed before anything else leaves, never moved out.
ALTER TABLE search_entries SET (toast_tuple_target = 256);
ALTER TABLE search_entries ALTER COLUMN name SET STORAGE MAIN, ALTER COLUMN name_tsv SET STORAGE MAIN,
  ALTER COLUMN acl SET STORAGE MAIN, ALTER COLUMN path SET STORAGE MAIN;

-- 2. How often each word is in the text, as words of their own: `lexeme#n` for every lexeme used
--    n >= 2 times (n exactly up to 15, then in steps: 16, 24, 32, 48, 64, 96, 128, 192). For a
--    single word, ts_rank grows with how often the word is used and with nothing else, so "the 21
--    best" are found by asking the index for the items that use it at least n times, n going down
--    until there are 21, and ranking only those: exact, without scoring every item that has it.
--    A lexeme may hold `#` itself; the count is what follows the last one, so no two differ only
--    in where the count begins.
CREATE FUNCTION cabinet_tf_bucket(n integer) RETURNS integer LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN n < 16 THEN n WHEN n < 24 THEN 16 WHEN n < 32 THEN 24 WHEN n < 48 THEN 32 WHEN n < 64 THEN 48
    WHEN n < 96 THEN 64 WHEN n < 128 THEN 96 WHEN n < 192 THEN 128 ELSE 192 END
$$;
CREATE FUNCTION cabinet_body_tf(body tsvector) RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(array_to_tsvector(array_agg(u.lexeme || '#' || cabinet_tf_bucket(cardinality(u.positions)))), ''::tsvector)
  FROM unnest(body) AS u WHERE cardinality(u.positions) >= 2
$$;
ALTER TABLE search_entries ADD COLUMN body_tf tsvector GENERATED ALWAYS AS (cabinet_body_tf(body_tsv)) STORED;

-- 3. Text, how often, and who may find it in one index: one scan intersects them all.
DROP INDEX search_entries_bodies;
CREATE INDEX search_entries_bodies ON search_entries USING gin (workspace_id, body_tsv, body_tf, acl);

-- 4. Typos through the words names are made of: a trigram index over a million names answers a
--    short word with tens of thousands of candidates (every name sharing a trigram with it); over
--    the distinct words it is a small table. The words close to what was typed are looked up
--    there, then the names that have them through the names index. Words are never taken out: one
--    no name has any more only finds nothing.
CREATE TABLE search_words (word text PRIMARY KEY);
CREATE INDEX search_words_trgm ON search_words USING gin (word gin_trgm_ops);
CREATE FUNCTION cabinet_search_name_words() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO search_words (word)
  SELECT w FROM unnest(tsvector_to_array(NEW.name_tsv)) AS w WHERE w ~ '^[[:alpha:]]{3,40}$'
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
CREATE TRIGGER search_entries_words AFTER INSERT OR UPDATE OF name_tsv ON search_entries FOR EACH ROW EXECUTE FUNCTION cabinet_search_name_words();
INSERT INTO search_words (word)
SELECT DISTINCT w FROM search_entries, unnest(tsvector_to_array(name_tsv)) AS w WHERE w ~ '^[[:alpha:]]{3,40}$';

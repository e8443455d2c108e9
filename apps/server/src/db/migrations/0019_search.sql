-- Search (ADR 0036): one entry per item, holding what is searched (its name, its text) and who may
-- find it (an access list of principals), in GIN indexes that answer text and access together.
-- Names are kept in step by triggers in the writer's transaction (cheap); text and access lists
-- are work for the background indexer, queued here as search_tasks by the same triggers.

CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE EXTENSION IF NOT EXISTS btree_gin;

-- A name's words for the index: as written, and split where people split words in file names
-- (`Q3-report_final.pdf`, `QuarterlyReport`), so any part of it finds it.
CREATE FUNCTION cabinet_name_words(name text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT name || ' ' || translate(regexp_replace(regexp_replace(name, '([[:lower:][:digit:]])([[:upper:]])', '\1 \2', 'g'), '([[:alpha:]])([[:digit:]])', '\1 \2', 'g'), '-_.,+()[]{}''"', '              ')
$$;
CREATE FUNCTION cabinet_name_tsv(name text) RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT to_tsvector('simple'::regconfig, cabinet_name_words(name))
$$;

CREATE TABLE search_entries (
  item_id uuid PRIMARY KEY REFERENCES items (id) ON DELETE CASCADE,
  workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
  name text NOT NULL,
  name_tsv tsvector NOT NULL,
  -- The document's or file's text (the first 1 MiB), for the index and for snippets.
  body text NOT NULL DEFAULT '',
  body_tsv tsvector NOT NULL DEFAULT ''::tsvector,
  -- Who may find it: the workspace (its members, not guests), people and groups, from where it is
  -- and from the grants on it and above it. Empty while it is in the trash. Answers are checked
  -- against the real policy as well, so a list not yet recomputed never shows what may not be seen.
  acl uuid[] NOT NULL DEFAULT '{}',
  -- The folders above it, root first: "search in this folder" is `path @> ARRAY[folder]`.
  path uuid[] NOT NULL DEFAULT '{}',
  -- A file's text: pending until read; ready (truncated when longer than the cap); unsupported
  -- (a type not read); failed (why in text_error). Documents are ready once their text is indexed.
  text_state text NOT NULL DEFAULT 'none' CHECK (text_state IN ('none', 'pending', 'ready', 'truncated', 'unsupported', 'failed')),
  text_error text,
  -- The file version whose text is indexed.
  text_version_id uuid,
  indexed_at timestamptz,
  -- When its access list was last worked out (null: never, so a new child cannot copy it).
  access_at timestamptz
);
CREATE INDEX search_entries_names ON search_entries USING gin (workspace_id, name_tsv, acl);
CREATE INDEX search_entries_bodies ON search_entries USING gin (workspace_id, body_tsv, acl);
CREATE INDEX search_entries_names_trgm ON search_entries USING gin (lower(name) gin_trgm_ops);
CREATE INDEX search_entries_paths ON search_entries USING gin (path);

-- Work for the indexer: an item's text to read again, or its access list (and its subtree's) to
-- recompute. One row per item and kind; queuing again while it runs counts up its generation, so
-- the run that finishes knows to leave the row for another pass.
CREATE TABLE search_tasks (
  item_id uuid NOT NULL,
  kind text NOT NULL CHECK (kind IN ('text', 'access')),
  queued_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  generation integer NOT NULL DEFAULT 0,
  locked_until timestamptz,
  attempts integer NOT NULL DEFAULT 0,
  PRIMARY KEY (item_id, kind)
);
CREATE INDEX search_tasks_due ON search_tasks (kind, queued_at);

CREATE FUNCTION cabinet_search_queue(item uuid, task text) RETURNS void LANGUAGE sql AS $$
  INSERT INTO search_tasks (item_id, kind) VALUES (item, task)
  ON CONFLICT (item_id, kind) DO UPDATE SET generation = search_tasks.generation + 1, attempts = 0
$$;

-- A new item: its entry, with its parent's access list and path (the common case: a new file in a
-- folder whose list is current), else the indexer works it out.
CREATE FUNCTION cabinet_search_item_added() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  parent search_entries%ROWTYPE;
BEGIN
  SELECT * INTO parent FROM search_entries WHERE item_id = NEW.parent_id;
  INSERT INTO search_entries (item_id, workspace_id, name, name_tsv, acl, path, text_state, access_at)
  VALUES (NEW.id, NEW.workspace_id, NEW.name, cabinet_name_tsv(NEW.name),
    CASE WHEN NEW.state = 'active' AND parent.item_id IS NOT NULL THEN parent.acl ELSE '{}' END,
    CASE WHEN parent.item_id IS NOT NULL THEN parent.path || parent.item_id ELSE '{}' END,
    CASE WHEN NEW.kind = 'folder' THEN 'none' ELSE 'pending' END,
    -- As current as its parent's: a folder made and filled at once needs no work per child.
    CASE WHEN NEW.state = 'active' THEN parent.access_at END);
  IF parent.item_id IS NULL OR NEW.state <> 'active' OR parent.access_at IS NULL THEN
    PERFORM cabinet_search_queue(NEW.id, 'access');
  END IF;
  IF NEW.kind <> 'folder' THEN
    PERFORM cabinet_search_queue(NEW.id, 'text');
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER items_search_added AFTER INSERT ON items FOR EACH ROW EXECUTE FUNCTION cabinet_search_item_added();

CREATE FUNCTION cabinet_search_item_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.name IS DISTINCT FROM OLD.name THEN
    UPDATE search_entries SET name = NEW.name, name_tsv = cabinet_name_tsv(NEW.name) WHERE item_id = NEW.id;
  END IF;
  IF NEW.parent_id IS DISTINCT FROM OLD.parent_id OR NEW.state IS DISTINCT FROM OLD.state THEN
    PERFORM cabinet_search_queue(NEW.id, 'access');
  END IF;
  IF NEW.kind = 'file' AND NEW.current_version_id IS DISTINCT FROM OLD.current_version_id THEN
    PERFORM cabinet_search_queue(NEW.id, 'text');
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER items_search_changed AFTER UPDATE OF name, parent_id, state, current_version_id ON items FOR EACH ROW EXECUTE FUNCTION cabinet_search_item_changed();

CREATE FUNCTION cabinet_search_grant_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM cabinet_search_queue(OLD.item_id, 'access');
  ELSE
    PERFORM cabinet_search_queue(NEW.item_id, 'access');
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER item_grants_search AFTER INSERT OR UPDATE OR DELETE ON item_grants FOR EACH ROW EXECUTE FUNCTION cabinet_search_grant_changed();

CREATE FUNCTION cabinet_search_text_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM cabinet_search_queue(NEW.item_id, 'text');
  RETURN NULL;
END $$;
CREATE TRIGGER document_contents_search AFTER INSERT OR UPDATE OF text ON document_contents FOR EACH ROW EXECUTE FUNCTION cabinet_search_text_changed();

-- What is already there: entries for every item, access worked out from each root down, every
-- file's and document's text read.
INSERT INTO search_entries (item_id, workspace_id, name, name_tsv, text_state)
SELECT id, workspace_id, name, cabinet_name_tsv(name), CASE WHEN kind = 'folder' THEN 'none' ELSE 'pending' END FROM items;
INSERT INTO search_tasks (item_id, kind) SELECT id, 'access' FROM items WHERE parent_id IS NULL;
INSERT INTO search_tasks (item_id, kind) SELECT id, 'text' FROM items WHERE kind <> 'folder';

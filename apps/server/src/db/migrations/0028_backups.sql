-- Backups (ADR 0057): each run of `cabinet backup` or of the scheduled backup, one at a time across
-- instances. While one runs (its heartbeat recent), bytes that its snapshot still names are not
-- deleted: the job deleting a blob waits for it to end.
CREATE TABLE backups (
  id uuid PRIMARY KEY,
  state text NOT NULL DEFAULT 'running' CHECK (state IN ('running', 'done', 'failed')),
  trigger text NOT NULL CHECK (trigger IN ('command', 'schedule')),
  -- The folder backups are written in, and this one's name in it.
  location text NOT NULL,
  name text NOT NULL,
  started_at timestamptz NOT NULL DEFAULT now(),
  heartbeat_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz,
  blob_count integer,
  blob_bytes bigint,
  copied_count integer,
  copied_bytes bigint,
  database_bytes bigint,
  -- Why it failed, or what it found wrong in storage (a blob missing or not matching its hash).
  error text
);
CREATE UNIQUE INDEX backups_one_running ON backups ((true)) WHERE state = 'running';
CREATE INDEX backups_started_idx ON backups (started_at DESC);

-- A dump is restored with an empty search_path (pg_dump's rule), and a stored column's expression is worked out as its
-- rows are loaded: the functions behind search's computed columns name what they call by its schema, or the restore
-- finds no `cabinet_tf_bucket`. The same functions, the same answers.
CREATE OR REPLACE FUNCTION cabinet_name_tsv(name text) RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT to_tsvector('simple'::regconfig, public.cabinet_name_words(name))
$$;
CREATE OR REPLACE FUNCTION cabinet_body_tf(body tsvector) RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(array_to_tsvector(array_agg(u.lexeme || '#' || public.cabinet_tf_bucket(cardinality(u.positions)))), ''::tsvector)
  FROM unnest(body) AS u WHERE cardinality(u.positions) >= 2
$$;

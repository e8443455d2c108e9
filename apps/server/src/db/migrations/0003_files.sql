-- Files: their versions, the uploads that make them, stars, recent visits, and the job queue.

CREATE TABLE file_versions (
  id uuid PRIMARY KEY,
  item_id uuid NOT NULL REFERENCES items (id) ON DELETE CASCADE,
  number integer NOT NULL,
  -- Copies share bytes: several versions may name one blob, which is deleted when none does.
  blob_key text NOT NULL,
  size_bytes bigint NOT NULL,
  sha256 text NOT NULL,
  mime_type text NOT NULL,
  author_id uuid REFERENCES users (id),
  state text NOT NULL DEFAULT 'ready' CHECK (state IN ('uploading', 'ready', 'pruned')),
  pinned boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (item_id, number)
);
CREATE INDEX file_versions_blob_idx ON file_versions (blob_key);

ALTER TABLE items ADD CONSTRAINT items_current_version_fk FOREIGN KEY (current_version_id) REFERENCES file_versions (id) DEFERRABLE INITIALLY DEFERRED;

CREATE TABLE uploads (
  id uuid PRIMARY KEY,
  workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
  -- Null once the folder (or file) is deleted for good: the upload then cannot complete, and
  -- expires like any other, which removes its parts from storage.
  parent_id uuid REFERENCES items (id) ON DELETE SET NULL,
  -- Set when the upload is a new version of this file.
  item_id uuid REFERENCES items (id) ON DELETE SET NULL,
  name text NOT NULL,
  on_conflict text NOT NULL CHECK (on_conflict IN ('fail', 'keep_both', 'replace')),
  size_bytes bigint NOT NULL,
  mime_type text NOT NULL,
  sha256 text,
  part_size bigint NOT NULL,
  part_count integer NOT NULL,
  blob_key text NOT NULL UNIQUE,
  storage_upload_id text NOT NULL,
  state text NOT NULL CHECK (state IN ('created', 'uploading', 'completed', 'aborted', 'expired', 'failed')),
  failure text,
  result_item_id uuid REFERENCES items (id) ON DELETE SET NULL,
  author_id uuid NOT NULL REFERENCES users (id),
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX uploads_author_idx ON uploads (author_id, workspace_id) WHERE state IN ('created', 'uploading');
CREATE INDEX uploads_expiry_idx ON uploads (expires_at) WHERE state IN ('created', 'uploading');

CREATE TABLE stars (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  item_id uuid NOT NULL REFERENCES items (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, item_id)
);
CREATE INDEX stars_item_idx ON stars (item_id);

-- What a person opened or changed lately: the Recent view.
CREATE TABLE item_visits (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  item_id uuid NOT NULL REFERENCES items (id) ON DELETE CASCADE,
  visited_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, item_id)
);
CREATE INDEX item_visits_recent_idx ON item_visits (user_id, visited_at DESC);
CREATE INDEX item_visits_item_idx ON item_visits (item_id);

-- Background work that must survive restarts. A runner leases a row (locked_until) inside a
-- FOR UPDATE SKIP LOCKED claim, so no job runs twice at once; a lease that lapses (the runner
-- died) makes the job claimable again. A `singleton` key keeps one pending copy of a recurring job.
CREATE TABLE jobs (
  id uuid PRIMARY KEY,
  kind text NOT NULL,
  payload jsonb NOT NULL DEFAULT '{}',
  singleton text UNIQUE,
  run_at timestamptz NOT NULL DEFAULT now(),
  attempts integer NOT NULL DEFAULT 0,
  max_attempts integer NOT NULL DEFAULT 10,
  locked_until timestamptz,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX jobs_due_idx ON jobs (run_at);

CREATE INDEX items_trashed_idx ON items (trashed_at) WHERE state = 'trashed';
-- The remaining listing sorts (by name and by modified have theirs since 0002).
CREATE INDEX items_children_by_size_idx ON items (parent_id, (kind <> 'folder'), size_bytes, id) WHERE state = 'active';
CREATE INDEX items_children_by_type_idx ON items (parent_id, (kind <> 'folder'), (coalesce(mime_type, '') || '/' || lower(name)), id) WHERE state = 'active';

-- Instance administration (/admin): what its administrators did, and when a job's last attempt ended.

-- One row per administrator's action on the instance (PRODUCT.md §2, /admin): kept as long as the instance,
-- with the target named as it was (an email, a workspace's name, a job's kind).
CREATE TABLE instance_audit (
  id uuid PRIMARY KEY,
  actor_user_id uuid REFERENCES users (id) ON DELETE SET NULL,
  action text NOT NULL,
  target_kind text NOT NULL CHECK (target_kind IN ('user', 'workspace', 'job')),
  target_id uuid NOT NULL,
  target_label text NOT NULL,
  data jsonb NOT NULL DEFAULT '{}',
  ip text,
  user_agent text,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- When a job's last attempt failed: a failed job shows since when.
ALTER TABLE jobs ADD COLUMN last_attempt_at timestamptz;

-- What each person's files take, for the administrators' list of people (read from the index alone).
CREATE INDEX items_owner_files_idx ON items (owner_id, state) INCLUDE (size_bytes) WHERE kind = 'file';

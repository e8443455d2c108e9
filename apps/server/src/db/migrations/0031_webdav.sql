-- WebDAV (ADR 0067). Dead properties a client sets with PROPPATCH, kept per item as the element it sent (a tree of
-- namespaced elements and text): they follow the item when it moves or is renamed, and go when it is deleted for good.
CREATE TABLE dav_properties (
  item_id uuid NOT NULL REFERENCES items (id) ON DELETE CASCADE,
  ns text NOT NULL,
  local text NOT NULL,
  value jsonb NOT NULL,
  PRIMARY KEY (item_id, ns, local)
);

-- Write locks (RFC 4918 §6–7), shared with the browser: a lock past its expiry is gone, whether or not its row is.
CREATE TABLE dav_locks (
  token text PRIMARY KEY,
  item_id uuid NOT NULL REFERENCES items (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  scope text NOT NULL CHECK (scope IN ('exclusive', 'shared')),
  deep boolean NOT NULL,
  -- The path it was taken on, shown as its root where the path to the item cannot be worked out from the one asked.
  href text NOT NULL,
  -- A lock on one of the holder's side files (dav_side_files) in the folder item_id: that file's name; null otherwise.
  side_name text,
  owner jsonb,
  client text,
  timeout_seconds integer NOT NULL,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX dav_locks_item_idx ON dav_locks (item_id);

-- The time a client says a file was last changed (rclone's and ownCloud's X-OC-Mtime), kept with the version it sent.
ALTER TABLE file_versions ADD COLUMN modified_at timestamptz;

-- What macOS Finder writes beside each file (`._name`, its extended attributes; `.DS_Store`, a folder's view), kept for
-- the person whose Finder wrote it, out of the folder everyone else sees: small, bounded, gone with the folder.
CREATE TABLE dav_side_files (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  folder_id uuid NOT NULL REFERENCES items (id) ON DELETE CASCADE,
  name text NOT NULL,
  bytes bytea NOT NULL,
  modified_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, folder_id, name)
);
CREATE INDEX dav_side_files_folder_idx ON dav_side_files (folder_id);

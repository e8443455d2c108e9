-- Previews of files (ADR 0040): keyed by the bytes' SHA-256 and the kind of preview, so identical
-- bytes share one, whichever workspace or item holds them. A row is work until it is answered:
-- `pending` (queued, or being made under a lease), then `ready` (its object is in storage under
-- `blob_key`), `failed` (with a reason for the details panel) or `unsupported`. `evicted`: it was
-- ready, its object went to keep the cache within PREVIEW_CACHE_MAX; asking for it makes it again.
CREATE TABLE previews (
  sha256 text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('thumb-256', 'thumb-1024')),
  state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'ready', 'failed', 'unsupported', 'evicted')),
  error text,
  -- Set only with state 'ready': the object is written first, then the row says so in one statement.
  blob_key text,
  size_bytes bigint NOT NULL DEFAULT 0,
  width integer,
  height integer,
  -- A ThumbHash (base64): the tiny placeholder drawn, at the picture's aspect, while it loads.
  placeholder text,
  attempts integer NOT NULL DEFAULT 0,
  run_after timestamptz NOT NULL DEFAULT now(),
  locked_until timestamptz,
  last_used_at timestamptz NOT NULL DEFAULT now(),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (sha256, kind)
);
CREATE INDEX previews_due_idx ON previews (run_after) WHERE state = 'pending';
CREATE INDEX previews_used_idx ON previews (last_used_at) WHERE state = 'ready';

-- The bytes a preview is made from, any ready version holding them, are found by 0022's
-- file_versions_content_idx (sha256, size_bytes) WHERE state = 'ready'.

-- A version that becomes ready queues its previews in the writer's transaction (bytes already
-- previewed, or queued, are left as they are).
CREATE FUNCTION cabinet_preview_queue() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.state = 'ready' AND (TG_OP = 'INSERT' OR OLD.state IS DISTINCT FROM 'ready') THEN
    INSERT INTO previews (sha256, kind) VALUES (NEW.sha256, 'thumb-256'), (NEW.sha256, 'thumb-1024')
    ON CONFLICT (sha256, kind) DO NOTHING;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER file_versions_preview AFTER INSERT OR UPDATE OF state ON file_versions FOR EACH ROW EXECUTE FUNCTION cabinet_preview_queue();

-- Files already held get theirs.
INSERT INTO previews (sha256, kind)
  SELECT DISTINCT v.sha256, k.kind FROM file_versions v CROSS JOIN (VALUES ('thumb-256'), ('thumb-1024')) AS k (kind)
  WHERE v.state = 'ready'
ON CONFLICT DO NOTHING;

-- Public links to an item (ADR 0032): anyone holding the URL may view (and, unless the link says
-- otherwise, download) the item and everything under it, without an account. A token is found by
-- its SHA-256; the token itself is kept only sealed (AES-GCM under a key derived from the instance
-- secret), so the item's managers can copy the URL again. A password is kept as an scrypt hash. The workspace's link policy lives in workspaces.settings (linksAllowed,
-- linkPasswordRequired, maxLinkLifetimeDays).

CREATE TABLE share_links (
  id uuid PRIMARY KEY,
  workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
  item_id uuid NOT NULL REFERENCES items (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('view', 'file_request')),
  token_hash text NOT NULL UNIQUE,
  token_sealed text NOT NULL,
  password_hash text,
  expires_at timestamptz,
  download_allowed boolean NOT NULL DEFAULT true,
  revoked_at timestamptz,
  views integer NOT NULL DEFAULT 0 CHECK (views >= 0),
  downloads integer NOT NULL DEFAULT 0 CHECK (downloads >= 0),
  created_by uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX share_links_item_idx ON share_links (item_id, created_at DESC);
-- Every live link of a workspace (the admins' list).
CREATE INDEX share_links_workspace_idx ON share_links (workspace_id, created_at DESC) WHERE revoked_at IS NULL;

-- Wrong passwords, per link and address, for the rate limit: rows older than the window are deleted as new ones come.
CREATE TABLE share_link_failures (
  link_id uuid NOT NULL REFERENCES share_links (id) ON DELETE CASCADE,
  ip text NOT NULL,
  at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX share_link_failures_idx ON share_link_failures (link_id, ip, at DESC);

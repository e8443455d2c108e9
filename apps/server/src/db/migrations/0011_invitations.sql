-- Invitations to join a workspace (ADR 0029): sent to one address, or an invite link (email null)
-- anyone holding it may use, up to max_uses. Only the SHA-256 of the token is kept: the token itself
-- is in the URL given once, at creation (and in the mail, for an invitation by email).

CREATE TABLE invitations (
  id uuid PRIMARY KEY,
  workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
  email text,
  role text NOT NULL CHECK (role IN ('admin', 'member', 'guest')),
  token_hash text NOT NULL UNIQUE,
  expires_at timestamptz NOT NULL,
  max_uses integer CHECK (max_uses IS NULL OR max_uses > 0),
  uses integer NOT NULL DEFAULT 0 CHECK (uses >= 0),
  -- Expired is also read from expires_at: a pending invitation past it is expired whatever this says.
  state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'accepted', 'revoked', 'expired')),
  created_by uuid REFERENCES users (id) ON DELETE SET NULL,
  accepted_by uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX invitations_workspace_idx ON invitations (workspace_id, created_at DESC);
-- How many a person made lately (the creation rate limit).
CREATE INDEX invitations_creator_idx ON invitations (created_by, created_at DESC);

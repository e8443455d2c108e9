-- Item grants (inherited down the tree), and the indexes folder listings page through.

CREATE TABLE item_grants (
  id uuid PRIMARY KEY,
  item_id uuid NOT NULL REFERENCES items (id) ON DELETE CASCADE,
  principal_type text NOT NULL CHECK (principal_type IN ('user', 'group', 'workspace')),
  principal_id uuid NOT NULL,
  role text NOT NULL CHECK (role IN ('viewer', 'commenter', 'editor', 'manager')),
  expires_at timestamptz,
  created_by uuid REFERENCES users (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (item_id, principal_type, principal_id)
);
CREATE INDEX item_grants_principal_idx ON item_grants (principal_type, principal_id);

-- Folders first, then by name; the id breaks ties so keyset pages never skip or repeat.
CREATE INDEX items_children_by_name_idx ON items (parent_id, (kind <> 'folder'), lower(name), id) WHERE state = 'active';
CREATE INDEX items_children_by_updated_idx ON items (parent_id, (kind <> 'folder'), updated_at, id) WHERE state = 'active';

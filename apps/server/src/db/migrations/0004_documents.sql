-- Documents: the collaborative state of each document item (a Yjs update holding the whole
-- document) and its plain text, kept for search and export.

CREATE TABLE document_contents (
  item_id uuid PRIMARY KEY REFERENCES items (id) ON DELETE CASCADE,
  state bytea NOT NULL,
  text text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by uuid REFERENCES users (id) ON DELETE SET NULL
);

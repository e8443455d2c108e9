-- Revision history of documents (a snapshot after every ten minutes of editing, when the last
-- editor leaves, and at each restore) and comment threads anchored to a document's text.

CREATE TABLE document_revisions (
  id uuid PRIMARY KEY,
  item_id uuid NOT NULL REFERENCES items (id) ON DELETE CASCADE,
  -- The whole document at that moment, as one Yjs update, and its plain text.
  state bytea NOT NULL,
  text text NOT NULL DEFAULT '',
  -- Who changed the document since the revision before.
  author_ids uuid[] NOT NULL DEFAULT '{}',
  label text,
  -- A restore's revision names the revision it brought back.
  restored_from uuid REFERENCES document_revisions (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX document_revisions_by_item ON document_revisions (item_id, created_at DESC, id DESC);

-- A thread is its first comment (thread_id = id), which holds the anchor and the resolved state;
-- replies name the thread.
CREATE TABLE comments (
  id uuid PRIMARY KEY,
  item_id uuid NOT NULL REFERENCES items (id) ON DELETE CASCADE,
  thread_id uuid NOT NULL,
  -- Yjs relative positions of the start and end of the commented text (JSON), so the anchor follows edits.
  anchor jsonb,
  -- The commented text as it was when the thread started.
  quote text,
  author_id uuid REFERENCES users (id) ON DELETE SET NULL,
  body text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  resolved_at timestamptz,
  resolved_by uuid REFERENCES users (id) ON DELETE SET NULL
);
CREATE INDEX comments_by_item ON comments (item_id, thread_id, created_at, id);

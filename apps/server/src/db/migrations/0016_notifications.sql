-- Notifications (ADR 0034): a person is told when something is shared with them, when they are
-- mentioned in a document or a comment, and when a thread they wrote in gets a reply. They are
-- derived after commit from the activity record (activity_events), never by the action itself.

CREATE TABLE notifications (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('shared', 'mentioned', 'replied', 'invited')),
  -- An item deleted forever takes its notifications with it.
  item_id uuid REFERENCES items (id) ON DELETE CASCADE,
  actor_id uuid REFERENCES users (id) ON DELETE SET NULL,
  -- Where in the item: a comment thread and the comment itself (no keys: a deleted comment
  -- leaves the notification, which then opens the document).
  thread_id uuid,
  comment_id uuid,
  -- The activity row it was derived from (no key: the record is pruned). One notification per
  -- person per row, so deriving again (another instance, a catch-up pass) adds nothing.
  event_id bigint NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  read_at timestamptz,
  -- Mailed (or skipped for mail) once; never again.
  mailed_at timestamptz,
  UNIQUE (event_id, user_id)
);
CREATE INDEX notifications_by_user ON notifications (user_id, id DESC);
CREATE INDEX notifications_unread ON notifications (user_id) WHERE read_at IS NULL;
-- What the mail job looks for: unread and not yet mailed, oldest first.
CREATE INDEX notifications_to_mail ON notifications (created_at) WHERE read_at IS NULL AND mailed_at IS NULL;

-- How far the activity record has been read for notifications: one row, locked by whoever derives.
CREATE TABLE notification_progress (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  last_event_id bigint NOT NULL
);
INSERT INTO notification_progress (id, last_event_id) SELECT true, COALESCE(max(id), 0) FROM activity_events;

-- The per-person setting: mail about notifications left unread (on unless turned off).
ALTER TABLE users ADD COLUMN notify_by_email boolean NOT NULL DEFAULT true;

-- The people a document mentions as of its last save, so a save names only the new ones.
ALTER TABLE document_contents ADD COLUMN mentions text[] NOT NULL DEFAULT '{}';

-- A notification made, read or unread is announced to its person on the live-changes channel
-- (heard on every instance, only on commit; identical payloads in one transaction arrive once).
CREATE FUNCTION cabinet_notification_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('cabinet_events', json_build_object('notice', NEW.user_id)::text);
  RETURN NULL;
END $$;
CREATE TRIGGER notifications_announce AFTER INSERT OR UPDATE OF read_at ON notifications FOR EACH ROW EXECUTE FUNCTION cabinet_notification_changed();

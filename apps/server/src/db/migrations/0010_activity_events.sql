-- Every change to what a workspace holds is recorded once, as a row written in the writer's own
-- transaction (ADR 0027). The row is the fact: live changes are announced from it (the trigger
-- below), and the audit log, search indexing and notifications read it. Append-only: nothing
-- updates or deletes a row except its workspace's deletion.

CREATE TABLE activity_events (
  -- Increasing, so a browser that reconnects asks for what came after the last one it saw.
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
  -- Who did it: a person in the browser (user), a script (token: the API token's id), someone
  -- holding a public link (link), or Cabinet itself (system: jobs, expiry).
  actor_kind text NOT NULL CHECK (actor_kind IN ('user', 'token', 'link', 'system')),
  actor_user_id uuid REFERENCES users (id) ON DELETE SET NULL,
  -- No foreign keys: the record outlives the token or link it names.
  actor_token_id uuid,
  actor_link_id uuid,
  action text NOT NULL CHECK (action ~ '^[a-z]+\.[a-z_]+$'),
  -- No foreign key either: an item deleted forever keeps its history.
  item_id uuid,
  -- What the action needs to be understood later (names, the folders it touched: parentIds).
  data jsonb NOT NULL DEFAULT '{}',
  ip text,
  user_agent text,
  -- The browser tab that made the change (X-Client-Id): that tab already shows it, and skips it.
  client_id text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX activity_events_workspace_idx ON activity_events (workspace_id, id);
CREATE INDEX activity_events_item_idx ON activity_events (item_id, id) WHERE item_id IS NOT NULL;
CREATE INDEX activity_events_actor_idx ON activity_events (actor_user_id, id) WHERE actor_user_id IS NOT NULL;

-- Announced on the live-changes channel from the row itself, so no writer can record without
-- announcing (heard only if the transaction commits). The payload stays small (NOTIFY allows 8000
-- bytes): listeners read anything more from the row.
CREATE FUNCTION cabinet_activity_recorded() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('cabinet_events', json_build_object(
    'w', NEW.workspace_id,
    'id', NEW.id,
    'by', NEW.actor_user_id,
    'e', json_build_object('type', NEW.action, 'itemId', NEW.item_id, 'parentIds', COALESCE(NEW.data -> 'parentIds', '[]'::jsonb), 'clientId', NEW.client_id)
  )::text);
  RETURN NULL;
END $$;
CREATE TRIGGER activity_events_announce AFTER INSERT ON activity_events FOR EACH ROW EXECUTE FUNCTION cabinet_activity_recorded();

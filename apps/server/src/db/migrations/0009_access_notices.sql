-- Whoever narrows access announces it on the live-changes channel, in the same transaction (heard
-- only if it commits): the collaboration socket of every instance then looks again at who may keep
-- a document open (ADR 0018). Triggers, so no writer (the API, the CLI, a job) can forget.

CREATE FUNCTION cabinet_access_changed(workspace uuid, person uuid) RETURNS void LANGUAGE sql AS $$
  SELECT pg_notify('cabinet_events', json_build_object('access', json_build_object('w', workspace, 'u', person))::text)
$$;

-- A grant given, changed or withdrawn: everyone in the item's workspace (grants hold for whole subtrees).
CREATE FUNCTION cabinet_grant_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  workspace uuid := (SELECT workspace_id FROM items WHERE id = COALESCE(NEW.item_id, OLD.item_id));
BEGIN
  -- Gone with its item: the item's deletion announces it.
  IF workspace IS NOT NULL THEN PERFORM cabinet_access_changed(workspace, NULL); END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER item_grants_access AFTER INSERT OR UPDATE OR DELETE ON item_grants FOR EACH ROW EXECUTE FUNCTION cabinet_grant_changed();

-- An item trashed, restored, moved or deleted: what is below it changes too.
CREATE FUNCTION cabinet_item_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM cabinet_access_changed(OLD.workspace_id, NULL);
  RETURN NULL;
END $$;
CREATE TRIGGER items_access AFTER UPDATE OF state, parent_id ON items FOR EACH ROW
  WHEN (OLD.state IS DISTINCT FROM NEW.state OR OLD.parent_id IS DISTINCT FROM NEW.parent_id) EXECUTE FUNCTION cabinet_item_changed();
CREATE TRIGGER items_access_deleted AFTER DELETE ON items FOR EACH ROW EXECUTE FUNCTION cabinet_item_changed();

-- A member's role changed or their membership ended.
CREATE FUNCTION cabinet_membership_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM cabinet_access_changed(OLD.workspace_id, OLD.user_id);
  RETURN NULL;
END $$;
CREATE TRIGGER memberships_access AFTER UPDATE OF role ON memberships FOR EACH ROW
  WHEN (OLD.role IS DISTINCT FROM NEW.role) EXECUTE FUNCTION cabinet_membership_changed();
CREATE TRIGGER memberships_access_deleted AFTER DELETE ON memberships FOR EACH ROW EXECUTE FUNCTION cabinet_membership_changed();

-- A user deactivated, a session or API token revoked or removed: that person's sockets.
CREATE FUNCTION cabinet_user_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM cabinet_access_changed(NULL, OLD.id);
  RETURN NULL;
END $$;
CREATE TRIGGER users_access AFTER UPDATE OF status ON users FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION cabinet_user_changed();
CREATE FUNCTION cabinet_user_access_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM cabinet_access_changed(NULL, OLD.user_id);
  RETURN NULL;
END $$;
CREATE TRIGGER sessions_access AFTER UPDATE OF revoked_at ON sessions FOR EACH ROW
  WHEN (OLD.revoked_at IS DISTINCT FROM NEW.revoked_at) EXECUTE FUNCTION cabinet_user_access_changed();
CREATE TRIGGER sessions_access_deleted AFTER DELETE ON sessions FOR EACH ROW EXECUTE FUNCTION cabinet_user_access_changed();
CREATE TRIGGER api_tokens_access AFTER UPDATE OF revoked_at ON api_tokens FOR EACH ROW
  WHEN (OLD.revoked_at IS DISTINCT FROM NEW.revoked_at) EXECUTE FUNCTION cabinet_user_access_changed();
CREATE TRIGGER api_tokens_access_deleted AFTER DELETE ON api_tokens FOR EACH ROW EXECUTE FUNCTION cabinet_user_access_changed();

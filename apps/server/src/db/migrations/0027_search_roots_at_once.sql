-- A new workspace's root and a new member's "My files" get their access lists in the writer's
-- transaction, as a new item under a current folder already does (0019). They were left to the
-- indexer, and until it had run, everything made in a new workspace copied an empty list from
-- its root and could not be found: a search straight after making a workspace found nothing.
-- A new root has no grants, so its list is who it belongs to: the workspace, or the member.

CREATE OR REPLACE FUNCTION cabinet_search_item_added() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  parent search_entries%ROWTYPE;
  owners uuid[];
BEGIN
  -- A workspace's root is inserted after its workspace (a member's home before its membership:
  -- that one is done by the trigger on memberships below).
  IF NEW.parent_id IS NULL AND NEW.state = 'active' THEN
    owners := ARRAY(SELECT w.id FROM workspaces w WHERE w.root_item_id = NEW.id ORDER BY w.id);
  END IF;
  SELECT * INTO parent FROM search_entries WHERE item_id = NEW.parent_id;
  INSERT INTO search_entries (item_id, workspace_id, name, name_tsv, acl, path, text_state, access_at)
  VALUES (NEW.id, NEW.workspace_id, NEW.name, cabinet_name_tsv(NEW.name),
    CASE WHEN cardinality(owners) > 0 THEN owners
      WHEN NEW.state = 'active' AND parent.item_id IS NOT NULL THEN parent.acl ELSE '{}' END,
    CASE WHEN parent.item_id IS NOT NULL THEN parent.path || parent.item_id ELSE '{}' END,
    CASE WHEN NEW.kind = 'folder' THEN 'none' ELSE 'pending' END,
    -- As current as its parent's: a folder made and filled at once needs no work per child.
    CASE WHEN cardinality(owners) > 0 THEN now() WHEN NEW.state = 'active' THEN parent.access_at END);
  IF coalesce(cardinality(owners), 0) = 0 AND (parent.item_id IS NULL OR NEW.state <> 'active' OR parent.access_at IS NULL) THEN
    PERFORM cabinet_search_queue(NEW.id, 'access');
  END IF;
  IF NEW.kind <> 'folder' THEN
    PERFORM cabinet_search_queue(NEW.id, 'text');
  END IF;
  RETURN NULL;
END $$;

-- A member's home, made with its membership (a new root, active, with no grants): its list is the
-- member. Its queued task stays (the indexer comes to the same list); only a list never worked out
-- is set here.
CREATE FUNCTION cabinet_search_home_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE search_entries SET acl = ARRAY[NEW.user_id], access_at = now()
  WHERE item_id = NEW.home_item_id AND access_at IS NULL;
  RETURN NULL;
END $$;
CREATE TRIGGER memberships_search_home AFTER INSERT ON memberships FOR EACH ROW EXECUTE FUNCTION cabinet_search_home_added();

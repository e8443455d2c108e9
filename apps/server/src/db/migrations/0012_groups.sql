-- Groups (ADR 0031): named sets of a workspace's members, shared with as one. A grant to a group
-- (item_grants.principal_type = 'group') gives each of its members that role, as long as they are
-- members of the workspace (not guests) and in the group.

CREATE TABLE groups (
  id uuid PRIMARY KEY,
  workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  created_by uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- A name once per workspace, whatever its case.
CREATE UNIQUE INDEX groups_name_idx ON groups (workspace_id, lower(name));

-- Someone in a group is someone in its workspace: leaving the workspace takes them out of its groups.
-- `source`: added by hand, or kept in step with the identity provider's groups claim at each sign-in
-- (only those are taken out when the claim no longer names the group).
CREATE TABLE group_members (
  group_id uuid NOT NULL REFERENCES groups (id) ON DELETE CASCADE,
  workspace_id uuid NOT NULL,
  user_id uuid NOT NULL,
  source text NOT NULL DEFAULT 'manual' CHECK (source IN ('manual', 'idp')),
  added_by uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (group_id, user_id),
  FOREIGN KEY (workspace_id, user_id) REFERENCES memberships (workspace_id, user_id) ON DELETE CASCADE
);
-- The groups a person is in (the access query, Shared with me).
CREATE INDEX group_members_user_idx ON group_members (user_id, group_id);
CREATE INDEX group_members_membership_idx ON group_members (workspace_id, user_id);

-- Someone added to or taken out of a group: their sockets and live streams look again (migration 0009).
CREATE FUNCTION cabinet_group_member_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM cabinet_access_changed(COALESCE(NEW.workspace_id, OLD.workspace_id), COALESCE(NEW.user_id, OLD.user_id));
  RETURN NULL;
END $$;
CREATE TRIGGER group_members_access AFTER INSERT OR DELETE ON group_members FOR EACH ROW EXECUTE FUNCTION cabinet_group_member_changed();

-- A group deleted: everyone in the workspace (its grants go with it).
CREATE FUNCTION cabinet_group_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM cabinet_access_changed(OLD.workspace_id, NULL);
  RETURN NULL;
END $$;
CREATE TRIGGER groups_access_deleted AFTER DELETE ON groups FOR EACH ROW EXECUTE FUNCTION cabinet_group_deleted();

-- Grants to a group go with it (a grant's principal is not a foreign key: it may be a user, a group or a workspace).
CREATE FUNCTION cabinet_group_grants_gone() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM item_grants WHERE principal_type = 'group' AND principal_id = OLD.id;
  RETURN OLD;
END $$;
CREATE TRIGGER groups_grants_gone BEFORE DELETE ON groups FOR EACH ROW EXECUTE FUNCTION cabinet_group_grants_gone();

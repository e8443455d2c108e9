-- Someone in a group is someone of the group's own workspace: group_members.workspace_id (which ties the
-- row to the membership, so leaving the workspace takes them out, migration 0012) must be the group's.
ALTER TABLE groups ADD CONSTRAINT groups_id_workspace_key UNIQUE (id, workspace_id);
ALTER TABLE group_members
  ADD CONSTRAINT group_members_group_workspace_fkey FOREIGN KEY (group_id, workspace_id) REFERENCES groups (id, workspace_id) ON DELETE CASCADE;

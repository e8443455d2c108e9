-- An upload that starts reserves its declared size in its workspace until it ends: the quota
-- check at the start sums the open uploads of the workspace.
CREATE INDEX uploads_workspace_open_idx ON uploads (workspace_id) WHERE state IN ('created', 'uploading');

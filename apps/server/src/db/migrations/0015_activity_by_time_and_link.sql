-- The audit log's date filters read a workspace's entries by time (ADR 0033), and a public link's
-- page view is recorded at most once an hour per link and address (ADR 0032): both look entries up
-- by these.

CREATE INDEX activity_events_workspace_created_idx ON activity_events (workspace_id, created_at, id);
CREATE INDEX activity_events_link_idx ON activity_events (actor_link_id, created_at) WHERE actor_link_id IS NOT NULL;

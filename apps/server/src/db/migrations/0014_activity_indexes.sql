-- The audit log (ADR 0033) reads activity_events filtered by workspace and person, action or item,
-- newest first, and the retention job deletes the oldest rows. API token use is recorded at most
-- once an hour per token: use_recorded_at says when it last was.

CREATE INDEX activity_events_workspace_actor_idx ON activity_events (workspace_id, actor_user_id, id);
CREATE INDEX activity_events_workspace_action_idx ON activity_events (workspace_id, action, id);
CREATE INDEX activity_events_created_idx ON activity_events (created_at);

ALTER TABLE api_tokens ADD COLUMN use_recorded_at timestamptz;

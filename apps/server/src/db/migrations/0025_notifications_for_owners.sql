-- More people are told (ADR 0034, amended): an item's owner of a comment on it (`commented`), a file
-- request's maker of the files that arrived through it (`uploaded`), and someone invited to a
-- workspace by their address (`invited`, made now). Notifications are kept
-- NOTIFICATION_RETENTION_DAYS, pruned by age.

ALTER TABLE notifications DROP CONSTRAINT notifications_kind_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_kind_check
  CHECK (kind IN ('shared', 'mentioned', 'replied', 'invited', 'commented', 'uploaded'));

-- The invitation an `invited` notification opens; it goes with the invitation (one whose mail
-- could not be sent is deleted).
ALTER TABLE notifications ADD COLUMN invitation_id uuid REFERENCES invitations (id) ON DELETE CASCADE;

-- The file request an `uploaded` notification is about: later arrivals through it are counted in
-- it while it is neither read nor mailed. No key, as uploads.link_id: the record names the link.
ALTER TABLE notifications ADD COLUMN link_id uuid;
CREATE INDEX notifications_by_link ON notifications (user_id, link_id, event_id) WHERE link_id IS NOT NULL;

-- The pruning job deletes the oldest first.
CREATE INDEX notifications_by_time ON notifications (created_at);

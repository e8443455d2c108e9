-- A file request may cap the bytes sent through it, all its files together (ADR 0035, amended):
-- `max_bytes` (null: no cap but the workspace's quota) and `uploaded_bytes`, the bytes of the files
-- made through the link, counted in the transaction that makes them, as `uploads` counts them.
ALTER TABLE share_links ADD COLUMN max_bytes bigint CHECK (max_bytes IS NULL OR max_bytes > 0);
ALTER TABLE share_links ADD COLUMN uploaded_bytes bigint NOT NULL DEFAULT 0 CHECK (uploaded_bytes >= 0);

-- What a link took before is counted from the uploads still on record (ended ones are forgotten after a while).
UPDATE share_links l SET uploaded_bytes = s.bytes
  FROM (SELECT link_id, sum(size_bytes) AS bytes FROM uploads WHERE link_id IS NOT NULL AND state = 'completed' GROUP BY link_id) s
 WHERE s.link_id = l.id;

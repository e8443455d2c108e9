-- Versions people manage (ADR 0041) and instant re-uploads (ADR 0042).

-- A version's name: a named version is pinned, kept for ever by the retention job.
ALTER TABLE file_versions ADD COLUMN name text;

-- The workspace already holds these bytes? Looked up by content (SHA-256 and size) among ready
-- versions, then narrowed to the workspace through the item: one index probe, a few rows.
CREATE INDEX file_versions_content_idx ON file_versions (sha256, size_bytes) WHERE state = 'ready';

-- The retention job walks the files that have more than one ready version, item by item.
CREATE INDEX file_versions_ready_item_idx ON file_versions (item_id, created_at) WHERE state = 'ready';

-- An upload whose bytes the workspace already holds: the blob it may reuse, and the challenge the
-- uploader answers from its own copy of the file (proof of possession), until it completes.
ALTER TABLE uploads ADD COLUMN dedup_blob_key text, ADD COLUMN dedup_challenge jsonb;

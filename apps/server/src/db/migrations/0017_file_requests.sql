-- File requests (ADR 0035): a link of kind 'file_request' takes uploads into its folder from
-- visitors without an account. Its uploads are counted on the link, like views and downloads.
ALTER TABLE share_links ADD COLUMN uploads integer NOT NULL DEFAULT 0 CHECK (uploads >= 0);

-- An upload made through a link belongs to that link (and, for the open-upload and start limits,
-- to the address it came from), not to the person who made the link: it is never in their list
-- of unfinished uploads, never takes their open-upload places, and only that link reaches it.
-- Not a foreign key: an upload outlives its link's row until it ends and its bytes are removed.
ALTER TABLE uploads ADD COLUMN link_id uuid;
ALTER TABLE uploads ADD COLUMN link_ip text;
CREATE INDEX uploads_link_idx ON uploads (link_id, link_ip, created_at DESC) WHERE link_id IS NOT NULL;

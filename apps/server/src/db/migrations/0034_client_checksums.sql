-- The SHA-1 and MD5 of a version sent through WebDAV (`SHA1:<hex> MD5:<hex>`), computed as its bytes came and shown to
-- clients that compare files by them (ownCloud's oc:checksums, which rclone reads; OC-Checksum, which it sends, is
-- checked against them), as X-OC-Mtime's time is kept with it. Null for versions uploaded otherwise.
ALTER TABLE file_versions ADD COLUMN checksums text;

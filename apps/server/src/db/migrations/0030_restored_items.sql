-- What `cabinet restore-item` brought back from which backup (ADR 0063): running it again after it ended (or was
-- killed after its transaction) says where the item is instead of bringing back a second one. A restored item deleted
-- for good takes its row with it, so the next run brings it back again.
CREATE TABLE restored_items (
  backup_id uuid NOT NULL,
  source_id uuid NOT NULL,
  item_id uuid NOT NULL REFERENCES items (id) ON DELETE CASCADE,
  restored_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (backup_id, source_id)
);
CREATE INDEX restored_items_item_idx ON restored_items (item_id);

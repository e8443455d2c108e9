-- The policy's facts about items (items.repo.ts, findAccessMany): each item walked up to its root,
-- the grants along the way that hold for the person, and their live membership of its workspace.
-- As one statement it cost more to plan than to run (1.7 ms of 2.4 ms on PGlite, every call);
-- inside a function its plan is made once per connection and kept (ADR 0051). A generic plan is
-- forced: the heuristic kept planning it afresh each time (the array's length is unknown to it).
-- What "holds" means here is what `grantHolds`, GRANT_RANK and LIVE_MEMBERSHIP say in TypeScript,
-- where listings use them for children: a change to one is a change to both.
CREATE FUNCTION cabinet_item_access(item_ids uuid[], person uuid)
RETURNS TABLE (
  item items, trashed_above boolean, chain text[], root_id uuid, grant_rank integer,
  member_role text, member_home_id uuid, workspace_root_id uuid, workspace_slug text,
  preview_sha256 text, preview_state text, preview_error text, preview_placeholder text, preview_width integer, preview_height integer
)
LANGUAGE plpgsql STABLE
SET plan_cache_mode = force_generic_plan
AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY
  WITH RECURSIVE walk AS (
    SELECT i.id AS start_id, i.id, i.parent_id, i.state, 0 AS depth FROM items i WHERE i.id = ANY(item_ids)
    UNION ALL
    SELECT w.start_id, i.id, i.parent_id, i.state, w.depth + 1 FROM items i JOIN walk w ON i.id = w.parent_id WHERE w.depth < 64
  ), granted AS MATERIALIZED (
    -- The grants on each chain, joined once for all the items asked about (not once per item).
    SELECT w.start_id, g.role, g.principal_type, g.principal_id FROM walk w JOIN item_grants g ON g.item_id = w.id
    WHERE g.expires_at IS NULL OR g.expires_at > now()
  )
  SELECT i,
    coalesce((SELECT bool_or(w.state = 'trashed') FROM walk w WHERE w.start_id = i.id AND w.depth > 0), false),
    (SELECT array_agg(w.id::text ORDER BY w.depth) FROM walk w WHERE w.start_id = i.id),
    (SELECT w.id FROM walk w WHERE w.start_id = i.id AND w.parent_id IS NULL),
    coalesce((SELECT max(CASE g.role WHEN 'viewer' THEN 1 WHEN 'commenter' THEN 2 WHEN 'editor' THEN 3 ELSE 4 END) FROM granted g
      WHERE g.start_id = i.id AND (
        (g.principal_type = 'user' AND g.principal_id = person)
        OR (g.principal_type = 'workspace' AND g.principal_id = i.workspace_id AND m.role <> 'guest')
        OR (g.principal_type = 'group' AND m.role <> 'guest'
          AND EXISTS (SELECT 1 FROM group_members gm WHERE gm.group_id = g.principal_id AND gm.user_id = person AND gm.workspace_id = i.workspace_id)))), 0),
    m.role, m.home_item_id, ws.root_item_id, ws.slug,
    pv.sha256, pv.state, pv.error, pv.placeholder, pv.width, pv.height
  FROM items i
  JOIN workspaces ws ON ws.id = i.workspace_id
  LEFT JOIN memberships m ON m.workspace_id = i.workspace_id AND m.user_id = person AND (m.role <> 'guest' OR EXISTS (
    SELECT 1 FROM item_grants lg JOIN items li ON li.id = lg.item_id
     WHERE lg.principal_type = 'user' AND lg.principal_id = m.user_id AND li.workspace_id = m.workspace_id
       AND (lg.expires_at IS NULL OR lg.expires_at > now())))
  -- The current version's small preview, as listings carry it (PREVIEW_JOIN in items.repo.ts).
  LEFT JOIN LATERAL (
    SELECT v.sha256, p.state, p.error, p.placeholder, p.width, p.height
    FROM file_versions v LEFT JOIN previews p ON p.sha256 = v.sha256 AND p.kind = 'thumb-256'
    WHERE v.id = i.current_version_id
  ) pv ON true
  WHERE i.id = ANY(item_ids);
END $$;

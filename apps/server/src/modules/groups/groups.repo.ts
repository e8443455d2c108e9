import { uuidv7 } from '@cabinet/contracts';
import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import type { WorkspaceRole } from '../workspaces/index.ts';

export interface GroupRow {
  id: string;
  workspace_id: string;
  name: string;
  created_at: Date;
  member_count: number;
}

export interface GroupMemberRow {
  user_id: string;
  name: string;
  email: string;
  role: WorkspaceRole;
  source: 'manual' | 'idp';
  created_at: Date;
}

const memberCount = sql<number>`(SELECT count(*)::int FROM group_members gm WHERE gm.group_id = groups.id)`;

/** The groups of a workspace by name (case folded), with how many people each has. */
export function findGroups(db: Db, workspaceId: string): Promise<GroupRow[]> {
  return db
    .selectFrom('groups')
    .select(['id', 'workspace_id', 'name', 'created_at', memberCount.as('member_count')])
    .where('workspace_id', '=', workspaceId)
    .orderBy(sql`lower(name)`)
    .orderBy('id')
    .execute();
}

/** One group of a workspace; with `lock`, held until the transaction ends. */
export function findGroup(db: Db, workspaceId: string, id: string, options: { lock?: boolean } = {}): Promise<GroupRow | undefined> {
  let q = db
    .selectFrom('groups')
    .select(['id', 'workspace_id', 'name', 'created_at', memberCount.as('member_count')])
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id);
  if (options.lock) q = q.forUpdate();
  return q.executeTakeFirst();
}

/** A group of the workspace with this name, compared as the unique index compares (case folded). */
export function findGroupNamed(db: Db, workspaceId: string, name: string, exceptId?: string) {
  let q = db
    .selectFrom('groups')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where(sql<string>`lower(name)`, '=', name.toLowerCase());
  if (exceptId) q = q.where('id', '!=', exceptId);
  return q.executeTakeFirst();
}

export async function insertGroup(db: Db, g: { workspaceId: string; name: string; by: string }): Promise<string> {
  const id = uuidv7();
  await db.insertInto('groups').values({ id, workspace_id: g.workspaceId, name: g.name, created_by: g.by }).execute();
  return id;
}

export async function renameGroupRow(db: Db, id: string, name: string): Promise<void> {
  await db.updateTable('groups').set({ name, updated_at: new Date() }).where('id', '=', id).execute();
}

/** Deletes a group; its grants go with it (migration 0012's trigger), and everyone in the workspace is told to look again. */
export async function deleteGroupRow(db: Db, id: string): Promise<void> {
  await db.deleteFrom('groups').where('id', '=', id).execute();
}

/** A group's people by name, with their role in the workspace. */
export function findGroupMembers(db: Db, groupId: string): Promise<GroupMemberRow[]> {
  return db
    .selectFrom('group_members as gm')
    .innerJoin('memberships as m', (j) => j.onRef('m.workspace_id', '=', 'gm.workspace_id').onRef('m.user_id', '=', 'gm.user_id'))
    .innerJoin('users as u', 'u.id', 'gm.user_id')
    .select(['gm.user_id', sql<string>`COALESCE(NULLIF(u.name, ''), u.email)`.as('name'), 'u.email', 'm.role', 'gm.source', 'gm.created_at'])
    .where('gm.group_id', '=', groupId)
    .orderBy(sql`lower(COALESCE(NULLIF(u.name, ''), u.email))`)
    .orderBy('gm.user_id')
    .execute();
}

/** Of these people, those who are members of the workspace (not guests): only they can be in its groups. */
export async function findGroupable(db: Db, workspaceId: string, userIds: string[]): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('memberships')
    .select('user_id')
    .where('workspace_id', '=', workspaceId)
    .where('user_id', 'in', userIds)
    .where('role', '<>', 'guest')
    .execute();
  return new Set(rows.map((r) => r.user_id));
}

/** Adds people to a group; those already in it stay as they were. Answers who was added. */
export async function insertGroupMembers(
  db: Db,
  group: { id: string; workspace_id: string },
  userIds: string[],
  source: 'manual' | 'idp',
  by: string | null,
): Promise<string[]> {
  if (userIds.length === 0) return [];
  const rows = await db
    .insertInto('group_members')
    .values(userIds.map((user_id) => ({ group_id: group.id, workspace_id: group.workspace_id, user_id, source, added_by: by })))
    .onConflict((oc) => oc.columns(['group_id', 'user_id']).doNothing())
    .returning('user_id')
    .execute();
  return rows.map((r) => r.user_id);
}

/** Takes someone out of a group; whether they were in it (the trigger of migration 0012 tells their sockets to look again). */
export async function deleteGroupMember(db: Db, groupId: string, userId: string): Promise<boolean> {
  const row = await db.deleteFrom('group_members').where('group_id', '=', groupId).where('user_id', '=', userId).returning('user_id').executeTakeFirst();
  return !!row;
}

/** Takes someone out of every group of a workspace; answers the groups they were in. */
export async function deleteFromAllGroups(db: Db, workspaceId: string, userId: string): Promise<{ id: string; name: string }[]> {
  const rows = await db
    .deleteFrom('group_members')
    .using('groups')
    .whereRef('groups.id', '=', 'group_members.group_id')
    .where('group_members.workspace_id', '=', workspaceId)
    .where('group_members.user_id', '=', userId)
    .returning(['groups.id', 'groups.name'])
    .execute();
  return rows;
}

/** A person's place in the groups of each of their workspaces (not as a guest), for keeping them in step with the provider's claim. */
export interface IdpPlaceRow {
  workspace_id: string;
  group_id: string;
  name: string;
  source: 'manual' | 'idp' | null;
}

/**
 * Every group of every workspace the person is a member of (not a guest), with their place in it
 * (`source` null when they are not in it).
 */
export async function findGroupPlaces(db: Db, userId: string): Promise<IdpPlaceRow[]> {
  const { rows } = await sql<IdpPlaceRow>`
    SELECT g.workspace_id, g.id AS group_id, g.name, gm.source
    FROM memberships m
    JOIN groups g ON g.workspace_id = m.workspace_id
    LEFT JOIN group_members gm ON gm.group_id = g.id AND gm.user_id = m.user_id
    WHERE m.user_id = ${userId} AND m.role <> 'guest'
    ORDER BY g.workspace_id, g.id
  `.execute(db);
  return rows;
}

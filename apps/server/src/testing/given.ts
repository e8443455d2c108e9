import { createHash } from 'node:crypto';
import { itemsApi, uploadsApi, uuidv7, type ResponseOf, type TItem } from '@cabinet/contracts';
import type { AppContext } from '../context.ts';
import { userForIdentity } from '../modules/auth/sign-in.service.ts';
import { createApiToken } from '../modules/tokens/tokens.service.ts';
import { findMemberWorkspace, insertMembership, type WorkspaceRole } from '../modules/workspaces/workspaces.repo.ts';
import { callingRoutes, withToken, type Answer, type RawCall, type RouteCall } from './route-call.ts';

export interface Person {
  id: string;
  token: string;
  /** Their own workspace, made at first sign-in. */
  workspace: { id: string; rootId: string; homeId: string };
  /** A declared route, called with their token: `ada.call(itemsApi.get, { params: { id } })`. */
  call: RouteCall;
  /** What no declaration allows, sent as it is (malformed paths and bodies). */
  raw: RawCall;
}

let n = 0;

export const sha256Hex = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/** PUTs an upload's parts to the URLs Cabinet signs, as a browser would; `only` picks some parts. */
export async function putParts(person: Person, upload: { id: string; partSize: number; partCount: number }, bytes: Uint8Array, only?: number[]): Promise<void> {
  const numbers = only ?? Array.from({ length: upload.partCount }, (_, i) => i + 1);
  const signed = await person.call(uploadsApi.signParts, { params: { id: upload.id }, body: { partNumbers: numbers } });
  if (signed.status !== 200) throw new Error(`could not sign parts: ${JSON.stringify(signed.error)}`);
  for (const part of signed.body.parts) {
    const body = bytes.subarray((part.partNumber - 1) * upload.partSize, part.partNumber * upload.partSize);
    const res = await fetch(part.url, { method: 'PUT', body });
    if (!res.ok) throw new Error(`part ${part.partNumber}: ${res.status} ${await res.text()}`);
  }
}

function calling(baseUrl: string, who: Omit<Person, 'call' | 'raw'>): Person {
  return { ...who, ...callingRoutes(withToken(baseUrl, who.token)) };
}

/** Factories for integration tests: people with API tokens, memberships and grants, made directly and fast. */
export function given(ctx: AppContext, baseUrl: string) {
  return {
    async person(name = `Person ${++n}`): Promise<Person> {
      const user = await userForIdentity(ctx, {
        issuer: 'https://tests.example',
        subject: uuidv7(),
        email: `${name.toLowerCase().replace(/\W+/g, '.')}.${uuidv7().slice(-6)}@example.com`,
        emailVerified: true,
        name,
        picture: undefined,
        idToken: undefined,
        refreshToken: undefined,
      });
      const { token } = await createApiToken(ctx.db, user.id, { name: 'tests' });
      const own = (await ctx.db.selectFrom('memberships').select('workspace_id').where('user_id', '=', user.id).executeTakeFirstOrThrow()).workspace_id;
      const w = (await findMemberWorkspace(ctx.db, user.id, own))!;
      return calling(baseUrl, { id: user.id, token, workspace: { id: w.id, rootId: w.root_item_id!, homeId: w.home_item_id! } });
    },

    /** The same person through an API token that may only read. */
    async readOnly(person: Person): Promise<Person> {
      const { token } = await createApiToken(ctx.db, person.id, { name: 'read-only tests', scopes: ['read'] });
      return calling(baseUrl, { id: person.id, token, workspace: person.workspace });
    },

    /** An app password of the person's (an API token with the `dav` scope), for WebDAV clients. */
    async appPassword(person: Person): Promise<string> {
      return (await createApiToken(ctx.db, person.id, { name: 'WebDAV tests', scopes: ['dav'] })).token;
    },

    /** Adds `person` to a workspace with a role; returns their "My files" root there. */
    async membership(person: Person, workspaceId: string, role: WorkspaceRole): Promise<string> {
      return insertMembership(ctx.db, { workspaceId, userId: person.id, role });
    },

    /** A folder or an empty document made through the API, as its creator would make it. */
    async item(person: Person, parentId: string, kind: 'folder' | 'document', name: string, workspaceId = person.workspace.id): Promise<TItem> {
      const res = await person.call(itemsApi.create, { params: { ws: workspaceId }, body: { kind, name, parentId } });
      if (res.status !== 201) throw new Error(`could not create ${name}: ${JSON.stringify(res.error)}`);
      return res.body;
    },

    /** A folder made through the API (in the person's own workspace unless another is named). */
    folder(person: Person, parentId: string, name: string, workspaceId?: string): Promise<TItem> {
      return this.item(person, parentId, 'folder', name, workspaceId);
    },

    /** An empty document made through the API (in the person's own workspace unless another is named). */
    document(person: Person, parentId: string, name: string, workspaceId?: string): Promise<TItem> {
      return this.item(person, parentId, 'document', name, workspaceId);
    },

    /**
     * A file uploaded through the real protocol: start, sign, PUT every part, complete. Returns
     * the completion's answer, or the start's when the start is refused.
     */
    async upload(
      person: Person,
      parentId: string,
      name: string,
      bytes: Uint8Array,
      o: { onConflict?: 'fail' | 'keep_both' | 'replace'; mimeType?: string } = {},
    ) {
      const start = await person.call(uploadsApi.start, {
        params: { ws: person.workspace.id },
        body: { parentId, name, size: bytes.length, sha256: sha256Hex(bytes), ...o },
      });
      // A refused start answers with its error, as a refused completion would.
      if (start.status !== 201) return start as unknown as Answer<ResponseOf<typeof uploadsApi.complete>>;
      await putParts(person, start.body, bytes);
      return person.call(uploadsApi.complete, { params: { id: start.body.id }, body: {} });
    },

    async grant(
      itemId: string,
      principal: { user: Person } | { workspace: string } | { group: string },
      role: 'viewer' | 'commenter' | 'editor' | 'manager',
      expiresAt: Date | null = null,
    ) {
      await ctx.db
        .insertInto('item_grants')
        .values({
          id: uuidv7(),
          item_id: itemId,
          principal_type: 'user' in principal ? 'user' : 'group' in principal ? 'group' : 'workspace',
          principal_id: 'user' in principal ? principal.user.id : 'group' in principal ? principal.group : principal.workspace,
          role,
          expires_at: expiresAt,
        })
        .execute();
    },
  };
}

import { createHash } from 'node:crypto';
import { uuidv7 } from '@cabinet/contracts';
import type { AppContext } from '../context.ts';
import { userForIdentity } from '../modules/auth/sign-in.service.ts';
import { createApiToken } from '../modules/tokens/tokens.service.ts';
import { findMemberWorkspace, insertMembership, type WorkspaceRole } from '../modules/workspaces/workspaces.repo.ts';

export interface Person {
  id: string;
  token: string;
  /** Their own workspace, made at first sign-in. */
  workspace: { id: string; rootId: string; homeId: string };
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; body: any; headers: Headers }>;
}

let n = 0;

export const sha256Hex = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/** PUTs an upload's parts to the URLs Cabinet signs, as a browser would; `only` picks some parts. */
export async function putParts(person: Person, upload: { id: string; partSize: number; partCount: number }, bytes: Uint8Array, only?: number[]): Promise<void> {
  const numbers = only ?? Array.from({ length: upload.partCount }, (_, i) => i + 1);
  const signed = await person.call('POST', `/uploads/${upload.id}/parts`, { partNumbers: numbers });
  if (signed.status !== 200) throw new Error(`could not sign parts: ${JSON.stringify(signed.body)}`);
  for (const part of signed.body.parts as { partNumber: number; url: string }[]) {
    const body = bytes.subarray((part.partNumber - 1) * upload.partSize, part.partNumber * upload.partSize);
    const res = await fetch(part.url, { method: 'PUT', body });
    if (!res.ok) throw new Error(`part ${part.partNumber}: ${res.status} ${await res.text()}`);
  }
}

function calling(baseUrl: string, who: Omit<Person, 'call'>): Person {
  return {
    ...who,
    async call(method, path, body, headers = {}) {
      const res = await fetch(`${baseUrl}/api/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${who.token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      const text = await res.text();
      const json = res.headers.get('content-type')?.includes('json');
      return { status: res.status, body: text && json ? JSON.parse(text) : text || undefined, headers: res.headers };
    },
  };
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

    /** Adds `person` to a workspace with a role; returns their "My files" root there. */
    async membership(person: Person, workspaceId: string, role: WorkspaceRole): Promise<string> {
      return insertMembership(ctx.db, { workspaceId, userId: person.id, role });
    },

    /** A folder made through the API, as its creator would make it. */
    async folder(person: Person, parentId: string, name: string): Promise<{ id: string; name: string }> {
      const res = await person.call('POST', `/workspaces/${person.workspace.id}/items`, { kind: 'folder', name, parentId });
      if (res.status !== 201) throw new Error(`could not create ${name}: ${JSON.stringify(res.body)}`);
      return res.body;
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
      const start = await person.call('POST', `/workspaces/${person.workspace.id}/uploads`, {
        parentId,
        name,
        size: bytes.length,
        sha256: sha256Hex(bytes),
        ...o,
      });
      if (start.status !== 201) return start;
      await putParts(person, start.body, bytes);
      return person.call('POST', `/uploads/${start.body.id}/complete`, {});
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

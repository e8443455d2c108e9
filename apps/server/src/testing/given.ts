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
      return {
        id: user.id,
        token,
        workspace: { id: w.id, rootId: w.root_item_id!, homeId: w.home_item_id! },
        async call(method, path, body, headers = {}) {
          const res = await fetch(`${baseUrl}/api/v1${path}`, {
            method,
            headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
            ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
          });
          const text = await res.text();
          return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
        },
      };
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

    async grant(itemId: string, principal: { user: Person } | { workspace: string }, role: 'viewer' | 'commenter' | 'editor' | 'manager', expiresAt: Date | null = null) {
      await ctx.db
        .insertInto('item_grants')
        .values({
          id: uuidv7(),
          item_id: itemId,
          principal_type: 'user' in principal ? 'user' : 'workspace',
          principal_id: 'user' in principal ? principal.user.id : principal.workspace,
          role,
          expires_at: expiresAt,
        })
        .execute();
    },
  };
}

import { randomBytes } from 'node:crypto';
import { itemsApi, urlOf, type ResponseOf } from '@cabinet/contracts';
import { describe, expect, it } from 'vitest';
import { sha256 } from '../../lib/crypto.ts';
import type { Person } from '../../testing/given.ts';
import { statementsOf } from '../../testing/statements.ts';
import { useTestApp } from '../../testing/test-app.ts';
import { insertSession } from '../sessions/sessions.repo.ts';

const test = useTestApp();

/** A session of `person`'s, as signing in starts it, for sending its cookie. */
async function sessionOf(person: Person): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await insertSession(test.app.ctx.db, {
    tokenHash: sha256(token),
    userId: person.id,
    userAgent: null,
    ip: null,
    expiresAt: new Date(Date.now() + 86_400_000),
    idTokenSealed: null,
    refreshTokenSealed: null,
  });
  return token;
}

/** One page of a folder's children and the statements answering it took, authentication included. */
async function listing(headers: Record<string, string>, ws: string, folderId: string, cursor?: string) {
  const { result, statements } = await statementsOf(() =>
    test.app.app.inject({ method: 'GET', url: urlOf(itemsApi.children, { ws, id: folderId }, { limit: 2, cursor }), headers }),
  );
  expect(result.statusCode, result.body).toBe(200);
  return { page: result.json<ResponseOf<typeof itemsApi.children>>(), statements };
}

describe('a folder listing', () => {
  it('is at most two statements, authentication included, for the first page and a deep one, by session and by API token', async () => {
    const ada = await test.given.person('Ada');
    const guest = await test.given.person('Gus');
    await test.given.membership(guest, ada.workspace.id, 'guest');
    const folder = await test.given.folder(ada, ada.workspace.rootId, 'Big');
    for (const name of ['a', 'b', 'c', 'd', 'e', 'f', 'g']) await test.given.folder(ada, folder.id, name);
    await test.given.grant(folder.id, { user: guest }, 'viewer');
    const callers = {
      session: { cookie: `cabinet_session=${await sessionOf(ada)}` },
      'API token': { authorization: `Bearer ${ada.token}` },
      "a guest's API token": { authorization: `Bearer ${guest.token}` },
    };
    for (const [caller, headers] of Object.entries(callers)) {
      // A token's first use of the minute notes that it was used (a write, once a minute); listings after it only read.
      await listing(headers, ada.workspace.id, folder.id);
      const first = await listing(headers, ada.workspace.id, folder.id);
      expect(first.page.items.map((i) => i.name)).toEqual(['a', 'b']);
      expect(first.statements.length, `${caller}, first page:\n${first.statements.join('\n\n')}`).toBeLessThanOrEqual(2);
      let cursor = first.page.nextCursor!;
      for (let page = 0; page < 2; page++) cursor = (await listing(headers, ada.workspace.id, folder.id, cursor)).page.nextCursor!;
      const deep = await listing(headers, ada.workspace.id, folder.id, cursor);
      expect(deep.page.items.map((i) => i.name)).toEqual(['g']);
      expect(deep.statements.length, `${caller}, deep page:\n${deep.statements.join('\n\n')}`).toBeLessThanOrEqual(2);
    }
  });
});

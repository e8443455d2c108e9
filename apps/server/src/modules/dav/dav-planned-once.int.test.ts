import { workspacesApi } from '@cabinet/contracts';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { sha256 } from '../../lib/crypto.ts';
import { findClientFacts, insertUploadsWhenRoom } from '../files/files.repo.ts';
import { findApiTokenWithUser } from '../tokens/tokens.repo.ts';
import { findPathAccess } from '../items/items.repo.ts';
import { useTestApp } from '../../testing/test-app.ts';
import { findLocksAround } from './dav.repo.ts';
import { DOCUMENT_EXTENSION } from './dav-resources.ts';

const test = useTestApp();

it("the statements of every WebDAV request are parsed once per connection and keep their generic plan: the app password and its person, the workspace by its slug with the path and the caller's access, the locks, a listing's client facts, a PUT's upload opened (ADR 0053, 0071, 0076)", async () => {
  const ada = await test.given.person('Ada');
  const slug = (await ada.call(workspacesApi.get, { params: { ws: ada.workspace.id } })).body.slug;
  const folder = await test.given.folder(ada, ada.workspace.homeId, 'Reports');
  const file = (await test.given.upload(ada, folder.id, 'a.bin', new Uint8Array([1, 2, 3]))).body.item!;
  const password = await test.given.appPassword(ada);
  const found = await test.app.ctx.db.connection().execute(async (conn) => {
    let answered = 0;
    for (let i = 0; i < 8; i++) {
      answered = (await findPathAccess(conn, { workspace: slug, place: 'home' }, ['Reports', 'a.bin'], DOCUMENT_EXTENSION, ada.id)).length;
      await findLocksAround(conn, folder.id, { below: false });
      expect(await findApiTokenWithUser(conn, sha256(password))).toBeDefined();
      await findClientFacts(conn, [file.id]);
      await findClientFacts(conn, [file.id, folder.id]);
      const upload = {
        ...{ workspace_id: ada.workspace.id, parent_id: folder.id, item_id: null, name: `new ${i}.bin`, on_conflict: 'replace' as const },
        ...{ size_bytes: 3, mime_type: 'application/octet-stream', sha256: null, part_size: 5 << 20, part_count: 1 },
        ...{ blob_key: `${ada.workspace.id}/planned-${i}`, storage_upload_id: `planned-${i}`, author_id: ada.id, link_id: null, link_ip: null },
        expires_at: new Date(Date.now() + 3_600_000),
      };
      expect(await insertUploadsWhenRoom(conn, [upload], 100)).toHaveLength(1);
    }
    const { rows } = await sql<{ statement: string; generic_plans: number }>`
      SELECT statement, generic_plans::int FROM pg_prepared_statements WHERE statement ~ ${String.raw`^/\* planned once \*/`}`.execute(conn);
    const kept = (start: string, has = '') =>
      rows.filter((r) => {
        const text = r.statement
          .replace(/^\/\* planned once \*\/\s*/, '')
          .replace(/\s+/g, ' ')
          .trim();
        return text.startsWith(start) && text.includes(has);
      });
    return {
      answered,
      ...Object.fromEntries(
        Object.entries({
          path: ['WITH RECURSIVE walk'],
          locks: ['WITH RECURSIVE above'],
          password: ['select "u"."id"', 'from "api_tokens" as "t"'],
          facts: ['SELECT i.id, v.modified_at', 'i.id = $1::uuid'],
          listingFacts: ['SELECT i.id, v.modified_at', 'ANY('],
          opened: ['WITH room AS'],
        }).map(([name, [start, has]]) => [name, kept(start!, has).map((r) => r.generic_plans >= 3)]),
      ),
    };
  });
  // The place's folder, the folder and the file; each statement kept once, planned generically since its first runs
  // (a listing's facts, an array whose length a generic plan guesses, parsed once at least).
  expect(found).toEqual({
    answered: 3,
    path: [true],
    locks: [true],
    password: [true],
    facts: [true],
    listingFacts: [expect.any(Boolean)],
    opened: [true],
  });
});

import { workspacesApi } from '@cabinet/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { davClient, davUrl } from '../../testing/dav-client.ts';
import type { Person } from '../../testing/given.ts';
import { useTestApp } from '../../testing/test-app.ts';

/**
 * The access matrix through WebDAV: each workspace role and an outsider × a file in their own My files, one in the
 * shared Workspace, one shared with them to view, one of another workspace — against PRODUCT.md §6 written out here
 * (what may not be seen is 404, what is seen but may not be changed is 403), for reading (PROPFIND, GET), changing
 * (PUT, PROPPATCH, LOCK) and taking away (DELETE). Nothing outside a person's access is reachable by any path.
 */
type Role = 'owner' | 'admin' | 'member' | 'guest' | 'outsider';
type Fixture = Role | 'colleague' | 'stranger';
type Relation = 'own' | 'workspace' | 'shared to view' | 'other workspace';
const ROLES: Role[] = ['owner', 'admin', 'member', 'guest', 'outsider'];
const RELATIONS: Relation[] = ['own', 'workspace', 'shared to view', 'other workspace'];

/** PRODUCT.md §6: what each role may do with the file. */
function expected(role: Role, relation: Relation): 'none' | 'view' | 'edit' {
  if (relation === 'own') return role === 'guest' ? 'view' : 'edit';
  if (relation === 'other workspace' || role === 'outsider') return 'none';
  if (relation === 'shared to view') return 'view';
  return role === 'guest' ? 'none' : 'edit';
}

describe('WebDAV access matrix', () => {
  const test = useTestApp();
  const people = {} as Record<Fixture, Person>;
  const passwords = {} as Record<Fixture, string>;
  let slug = '';
  let outsiderSlug = '';
  let strangerSlug = '';
  let n = 0;

  beforeAll(async () => {
    const g = test.given;
    people.owner = await g.person('Owner');
    const ws = people.owner.workspace.id;
    slug = (await people.owner.call(workspacesApi.get, { params: { ws } })).body.slug;
    for (const role of ['admin', 'member', 'guest'] as const) {
      people[role] = await g.person(role);
      await g.membership(people[role], ws, role);
    }
    // Who shares with the caller: a colleague in the workspace; whose workspace is another: a stranger.
    people.colleague = await g.person('Colleague');
    await g.membership(people.colleague, ws, 'member');
    people.outsider = await g.person('Outsider');
    outsiderSlug = (await people.outsider.call(workspacesApi.get, { params: { ws: people.outsider.workspace.id } })).body.slug;
    people.stranger = await g.person('Stranger');
    strangerSlug = (await people.stranger.call(workspacesApi.get, { params: { ws: people.stranger.workspace.id } })).body.slug;
    for (const who of [...ROLES, 'colleague', 'stranger'] as const) passwords[who] = await g.appPassword(people[who]);
  });

  /** A fresh file for one cell: the path the caller names it by, and who may read it back to see it unchanged. */
  async function fileFor(role: Role, relation: Relation): Promise<{ path: string; reader: Fixture; readerPath: string }> {
    const g = test.given;
    const name = `f${++n}.txt`;
    const bytes = new TextEncoder().encode(`cell ${n}`);
    const me = people[role];
    if (relation === 'own') {
      // Their My files in the owner's workspace (the outsider's in their own).
      const ws = role === 'outsider' ? me.workspace.id : people.owner.workspace.id;
      const home = (await me.call(workspacesApi.get, { params: { ws } })).body.homeId;
      await g.upload({ ...me, workspace: { ...me.workspace, id: ws } }, home, name, bytes);
      const path = davUrl(role === 'outsider' ? outsiderSlug : slug, 'My files', name);
      return { path, reader: role, readerPath: path };
    }
    if (relation === 'workspace') {
      await g.upload(people.owner, people.owner.workspace.rootId, name, bytes);
      const path = davUrl(slug, 'Workspace', name);
      return { path, reader: 'owner', readerPath: path };
    }
    if (relation === 'shared to view') {
      const colleague = { ...people.colleague, workspace: { ...people.colleague.workspace, id: people.owner.workspace.id } };
      const home = (await colleague.call(workspacesApi.get, { params: { ws: people.owner.workspace.id } })).body.homeId;
      const folder = await g.folder(colleague, home, `for ${name}`, people.owner.workspace.id);
      await g.upload(colleague, folder.id, name, bytes);
      await g.grant(folder.id, { user: me }, 'viewer');
      return { path: davUrl(slug, 'Shared with me', `for ${name}`, name), reader: 'colleague', readerPath: davUrl(slug, 'My files', `for ${name}`, name) };
    }
    await g.upload(people.stranger, people.stranger.workspace.rootId, name, bytes);
    const path = davUrl(strangerSlug, 'Workspace', name);
    return { path, reader: 'stranger', readerPath: path };
  }

  for (const role of ROLES) {
    for (const relation of RELATIONS) {
      // A guest's own My files holds nothing they could have put there.
      if (role === 'guest' && relation === 'own') continue;
      // An outsider is shared nothing: the grant would make them a guest.
      if (role === 'outsider' && relation === 'shared to view') continue;
      it(`${role} × ${relation}`, async () => {
        const { path, reader, readerPath } = await fileFor(role, relation);
        const dav = davClient(test.app.url, passwords[role]);
        const may = expected(role, relation);
        const read = may === 'none' ? 404 : undefined;
        const write = may === 'none' ? 404 : may === 'view' ? 403 : undefined;
        expect((await dav.propfind(path, '0')).status, 'PROPFIND').toBe(read ?? 207);
        expect((await dav.send('GET', path)).status, 'GET').toBe(read ?? 200);
        const put = (await dav.send('PUT', path, { body: 'changed' })).status;
        // Unseen, a PUT names a new file: refused where the caller may not create (403) or sees no folder (409).
        if (may === 'none') expect([403, 409], 'PUT').toContain(put);
        else expect(put, 'PUT').toBe(write ?? 204);
        const patch = await dav.send('PROPPATCH', path, {
          body: '<d:propertyupdate xmlns:d="DAV:" xmlns:z="urn:z"><d:set><d:prop><z:a>1</z:a></d:prop></d:set></d:propertyupdate>',
        });
        expect(patch.status, 'PROPPATCH').toBe(write ?? 207);
        const lock = await dav.send('LOCK', path, {
          body: '<d:lockinfo xmlns:d="DAV:"><d:lockscope><d:exclusive/></d:lockscope><d:locktype><d:write/></d:locktype></d:lockinfo>',
        });
        if (may === 'none') expect([403, 409], 'LOCK').toContain(lock.status);
        else expect(lock.status, 'LOCK').toBe(write ?? 200);
        const token = lock.headers.get('lock-token');
        if (token) expect((await dav.send('UNLOCK', path, { headers: { 'lock-token': token } })).status).toBe(204);
        expect((await dav.send('DELETE', path)).status, 'DELETE').toBe(write ?? 204);
        // What the caller could not change is as it was; what they could, they took away.
        const after = await davClient(test.app.url, passwords[reader]).send('GET', readerPath);
        if (may === 'edit') expect(after.status).toBe(404);
        else expect(await after.text()).toMatch(/^cell \d+$/);
      });
    }
  }
});

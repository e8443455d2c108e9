import {
  commentsApi,
  describeNotification,
  grantsApi,
  groupsApi,
  invitationsApi,
  itemsApi,
  linksApi,
  meApi,
  notificationsApi,
  publicLinksApi,
  type QueryIn,
  type TCreateGrantRequest,
  urlOf,
} from '@cabinet/contracts';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { DOCUMENT_FRAGMENT } from '@cabinet/doc-schema';
import * as Y from 'yjs';
import { describe, expect, it } from 'vitest';
import { collabTestApp, until } from '../../testing/collab-client.ts';
import { sha256Hex, type Person } from '../../testing/given.ts';
import { linkVisitor } from '../../testing/link-visitor.ts';
import { jobDefinitions } from '../../jobs.ts';

import { deriveNotifications, mailUnreadNotifications } from './index.ts';

const app = collabTestApp();

const list = async (p: Person, query: QueryIn<typeof notificationsApi.list> = {}) => (await p.call(notificationsApi.list, { query })).body;
/** Everything recorded so far has been read for notifications (the live path may still be on its way: this waits for nothing). */
const settled = () => deriveNotifications(app.t.ctx.db);
type Page = Awaited<ReturnType<typeof list>>;
/** The person's notifications once `ready` holds of them (within 15 s). */
async function eventually(p: Person, ready: (page: Page) => boolean): Promise<Page> {
  for (let i = 0; i < 150; i++) {
    const page = await list(p);
    if (ready(page)) return page;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the notifications did not come');
}
const share = (by: Person, itemId: string, principal: TCreateGrantRequest['principal'], role: TCreateGrantRequest['role'] = 'viewer') =>
  by.call(grantsApi.create, { params: { id: itemId }, body: { principal, role } });
const doc = (p: Person, name = `Plan ${Math.random()}`) => app.g.document(p, p.workspace.rootId, name);
const emailOf = async (p: Person) => (await p.call(meApi.get)).body.user.email;
/** A file request on a folder, and a visitor sending files through it (start, parts, complete), as its page does. */
async function fileRequest(maker: Person, folderId: string) {
  const made = await maker.call(linksApi.create, { params: { id: folderId }, body: { kind: 'file_request' } });
  if (made.status !== 201 || !made.body.url) throw new Error(`no file request: ${JSON.stringify(made.error)}`);
  const token = made.body.url.split('/s/')[1]!;
  const visitor = linkVisitor(app.t.url);
  return {
    async send(name: string) {
      const bytes = new TextEncoder().encode(`${name} ${Math.random()}`);
      const start = await visitor.call(publicLinksApi.startUpload, { params: { token }, body: { name, size: bytes.length, sha256: sha256Hex(bytes) } });
      expect(start.status).toBe(201);
      const signed = await visitor.call(publicLinksApi.signParts, { params: { token, uploadId: start.body.id }, body: { partNumbers: [1] } });
      for (const part of signed.body.parts) expect((await fetch(part.url, { method: 'PUT', body: bytes })).ok).toBe(true);
      expect((await visitor.call(publicLinksApi.completeUpload, { params: { token, uploadId: start.body.id }, body: {} })).status).toBe(200);
    },
  };
}
const outbox = () => {
  const dir = path.join(app.t.ctx.env.DATA_DIR, 'outbox');
  return existsSync(dir)
    ? readdirSync(dir).map((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as { to: string; subject: string; text: string })
    : [];
};

describe('notifications', () => {
  it('tells a person something was shared with them, live and listed, and not the one who shared it', async () => {
    const [ada, bea] = [await app.g.person('Ada'), await app.g.person('Bea')];
    const plan = await doc(ada, 'Roadmap');
    expect((await share(ada, plan.id, { type: 'user', id: bea.id })).status).toBe(201);
    // Made as the change is heard, without anyone asking for it.
    const page = await eventually(bea, (p) => p.unreadCount > 0);
    expect(page.unreadCount).toBe(1);
    expect(page.items).toEqual([
      expect.objectContaining({
        kind: 'shared',
        item: { id: plan.id, kind: 'document', name: 'Roadmap' },
        actor: { id: ada.id, name: 'Ada' },
        workspace: expect.objectContaining({ id: ada.workspace.id }),
        threadId: null,
        commentId: null,
        readAt: null,
      }),
    ]);
    expect((await list(ada)).items).toEqual([]);
    // Sharing again (a new role) says nothing new while the first is unread.
    await share(ada, plan.id, { type: 'user', id: bea.id }, 'editor');
    await settled();
    expect((await list(bea)).unreadCount).toBe(1);
  });

  it('tells the person’s open pages at once on the live stream of whichever workspace they watch, and no one else', async () => {
    const [ada, bea] = [await app.g.person('Ada'), await app.g.person('Bea')];
    const streams = await Promise.all(
      [bea, ada].map(async (p) => {
        const controller = new AbortController();
        // Bea watches her own workspace; the share is in Ada's. Fetched: the stream is read as it comes.
        const res = await fetch(`${app.t.url}/api/v1/workspaces/${p.workspace.id}/events`, {
          headers: { authorization: `Bearer ${p.token}` },
          signal: controller.signal,
        });
        const heard = { text: '', controller };
        void (async () => {
          const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
          for (;;) {
            const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
            if (done) return;
            heard.text += value;
          }
        })();
        return heard;
      }),
    );
    const [beaHeard, adaHeard] = streams as [(typeof streams)[number], (typeof streams)[number]];
    await until(() => beaHeard.text.includes(': connected') && adaHeard.text.includes(': connected'), 'both streams to open');
    await share(ada, (await doc(ada)).id, { type: 'user', id: bea.id });
    await until(() => beaHeard.text.includes('event: notifications\ndata: {}'), 'Bea to hear of her notification', 5000);
    await bea.call(notificationsApi.read, { body: { all: true } });
    await until(() => beaHeard.text.split('event: notifications').length === 3, 'Bea’s other pages to hear she read it', 5000);
    expect(adaHeard.text).not.toContain('event: notifications');
    for (const s of streams) s.controller.abort();
  });

  it('tells each member of a group a thing was shared with, but not the sharer in it; the whole workspace is no one in particular', async () => {
    const [ada, bea, cy] = [await app.g.person('Ada'), await app.g.person('Bea'), await app.g.person('Cy')];
    for (const p of [bea, cy]) await app.g.membership(p, ada.workspace.id, 'member');
    const group = (await ada.call(groupsApi.create, { params: { ws: ada.workspace.id }, body: { name: `Team ${Math.random()}` } })).body;
    await ada.call(groupsApi.addMembers, { params: { ws: ada.workspace.id, groupId: group.id }, body: { userIds: [ada.id, bea.id, cy.id] } });
    const folder = await app.g.folder(ada, ada.workspace.homeId, 'Specs');
    expect((await share(ada, folder.id, { type: 'group', id: group.id })).status).toBe(201);
    const other = await app.g.folder(ada, ada.workspace.homeId, 'Everyone');
    expect((await share(ada, other.id, { type: 'workspace' })).status).toBe(201);
    await settled();
    for (const p of [bea, cy]) expect((await list(p)).items.map((n) => [n.kind, n.item?.name])).toEqual([['shared', 'Specs']]);
    expect((await list(ada)).items).toEqual([]);
  });

  it('tells people mentioned in a comment and everyone who wrote in a thread of a reply, never the replier, once each', async () => {
    const [ada, bea, cy, dee] = [await app.g.person('Ada'), await app.g.person('Bea'), await app.g.person('Cy'), await app.g.person('Dee')];
    const plan = await doc(ada);
    for (const p of [bea, cy]) {
      await app.g.membership(p, ada.workspace.id, 'guest');
      await app.g.grant(plan.id, { user: p }, 'commenter');
    }
    // Dee cannot see the document: mentioning her tells her nothing.
    const thread = (
      await bea.call(commentsApi.add, { params: { id: plan.id }, body: { body: '@Ada @Dee is this right?', mentions: [ada.id, dee.id, bea.id] } })
    ).body;
    await settled();
    expect((await list(ada)).items).toEqual([
      expect.objectContaining({ kind: 'mentioned', actor: { id: bea.id, name: 'Bea' }, threadId: thread.id, commentId: thread.id }),
    ]);
    expect((await list(dee)).items).toEqual([]);
    expect((await list(bea)).items).toEqual([]);
    // Cy replies mentioning Bea, who also wrote in the thread: one notification, the mention.
    const reply = (await cy.call(commentsApi.add, { params: { id: plan.id }, body: { body: 'Yes @Bea', threadId: thread.id, mentions: [bea.id] } })).body
      .comments[1];
    expect(reply).toBeDefined();
    await settled();
    expect((await list(bea)).items).toEqual([expect.objectContaining({ kind: 'mentioned', threadId: thread.id, commentId: reply!.id })]);
    // Ada owns the document: she hears of the comment on it.
    expect((await list(ada)).items.map((n) => n.kind)).toEqual(['commented', 'mentioned']);
    // Ada replies: Bea and Cy wrote there before her; Ada is not told of her own reply.
    await ada.call(commentsApi.add, { params: { id: plan.id }, body: { body: 'Thanks both', threadId: thread.id } });
    await settled();
    expect((await list(bea)).items.map((n) => n.kind)).toEqual(['replied', 'mentioned']);
    expect((await list(cy)).items).toEqual([expect.objectContaining({ kind: 'replied', actor: { id: ada.id, name: 'Ada' }, threadId: thread.id })]);
    expect((await list(ada)).items.map((n) => n.kind)).toEqual(['commented', 'mentioned']);
  });

  it('tells people newly mentioned in a document as it is saved, not again on later saves, and not those who cannot see it', async () => {
    const [ada, bea, dee] = [await app.g.person('Ada'), await app.g.person('Bea'), await app.g.person('Dee')];
    const plan = await doc(ada, 'Minutes');
    await app.g.membership(bea, ada.workspace.id, 'member');
    const editor = app.clients.connect(plan.id, ada.token);
    await until(() => editor.outcome.synced, 'the editor to sync');
    const mention = (id: string, label: string) => {
      const paragraph = new Y.XmlElement('paragraph');
      const node = new Y.XmlElement('mention');
      node.setAttribute('id', id);
      node.setAttribute('label', label);
      paragraph.insert(0, [new Y.XmlText('Ask '), node]);
      editor.document.getXmlFragment(DOCUMENT_FRAGMENT).push([paragraph]);
    };
    mention(bea.id, 'Bea');
    mention(dee.id, 'Dee');
    const page = await eventually(bea, (p) => p.items.length > 0);
    expect(page.items).toEqual([
      expect.objectContaining({
        kind: 'mentioned',
        item: { id: plan.id, kind: 'document', name: 'Minutes' },
        actor: { id: ada.id, name: 'Ada' },
        threadId: null,
      }),
    ]);
    // Another save that still mentions Bea says nothing new.
    const before = (
      await app.t.ctx.db
        .selectFrom('activity_events')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('item_id', '=', plan.id)
        .where('action', '=', 'item.updated')
        .executeTakeFirstOrThrow()
    ).n;
    const paragraph = new Y.XmlElement('paragraph');
    paragraph.insert(0, [new Y.XmlText('More words')]);
    editor.document.getXmlFragment(DOCUMENT_FRAGMENT).push([paragraph]);
    for (let i = 0; i < 150; i++) {
      const now = (
        await app.t.ctx.db
          .selectFrom('activity_events')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('item_id', '=', plan.id)
          .where('action', '=', 'item.updated')
          .executeTakeFirstOrThrow()
      ).n;
      if (Number(now) > Number(before)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    await settled();
    expect((await list(bea)).items).toHaveLength(1);
    expect((await list(dee)).items).toEqual([]);
    expect((await list(ada)).items).toEqual([]);
  });

  it('reads recent changes behind its position again, so one committed late is not missed, and makes nothing twice', async () => {
    const [ada, bea] = [await app.g.person('Ada'), await app.g.person('Bea')];
    const plan = await doc(ada, 'Late');
    await share(ada, plan.id, { type: 'user', id: bea.id });
    await eventually(bea, (p) => p.items.length === 1);
    // As if the change had committed after the position moved past it: no notification, position beyond.
    await app.t.ctx.db.deleteFrom('notifications').where('user_id', '=', bea.id).execute();
    // A pass woken by a change reads only what is past the position: each save does not read a thousand changes again.
    await deriveNotifications(app.t.ctx.db, { lookBack: false });
    expect((await list(bea)).items).toEqual([]);
    // The recurring pass reads the recent ones behind it.
    await settled();
    expect((await list(bea)).items.map((n) => n.item?.name)).toEqual(['Late']);
    await settled();
    expect((await list(bea)).items).toHaveLength(1);
  });

  it('no longer names an item whose share was withdrawn or that went to the trash', async () => {
    const [ada, bea] = [await app.g.person('Ada'), await app.g.person('Bea')];
    const [secret, binned] = [await doc(ada, 'Salaries'), await doc(ada, 'Old plan')];
    const grant = (await share(ada, secret.id, { type: 'user', id: bea.id })).body;
    await share(ada, binned.id, { type: 'user', id: bea.id });
    await settled();
    expect((await list(bea)).items.map((n) => n.item?.name)).toEqual(['Old plan', 'Salaries']);
    expect((await ada.call(grantsApi.remove, { params: { id: secret.id, grantId: grant.id } })).status).toBe(204);
    expect((await ada.call(itemsApi.trash, { params: { id: binned.id } })).status).toBe(200);
    const page = await list(bea);
    expect(page.items.map((n) => [n.kind, n.item, n.actor?.name])).toEqual([
      ['shared', null, 'Ada'],
      ['shared', null, 'Ada'],
    ]);
    expect(JSON.stringify(page)).not.toContain('Salaries');
    expect(page.unreadCount).toBe(2);
  });

  it('marks some or all as read, only the caller’s own, and pages newest first', async () => {
    const [ada, bea] = [await app.g.person('Ada'), await app.g.person('Bea')];
    const docs = [];
    for (let i = 0; i < 3; i++) {
      const d = await doc(ada, `Doc ${i}`);
      docs.push(d);
      await share(ada, d.id, { type: 'user', id: bea.id });
    }
    await settled();
    const first = await list(bea, { limit: 2 });
    expect(first.items.map((n) => n.item?.name)).toEqual(['Doc 2', 'Doc 1']);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await list(bea, { limit: 2, cursor: first.nextCursor! });
    expect(second.items.map((n) => n.item?.name)).toEqual(['Doc 0']);
    expect(second.nextCursor).toBeNull();
    // Someone else's ids change nothing.
    expect((await ada.call(notificationsApi.read, { body: { ids: [first.items[0]!.id] } })).body).toEqual({ unreadCount: 0 });
    expect((await bea.call(notificationsApi.read, { body: { ids: [first.items[0]!.id] } })).body).toEqual({ unreadCount: 2 });
    expect((await list(bea, { unread: 'true' })).items.map((n) => n.item?.name)).toEqual(['Doc 1', 'Doc 0']);
    expect((await list(bea)).items[0]!.readAt).toEqual(expect.any(String));
    expect((await bea.call(notificationsApi.read, { body: { all: true } })).body).toEqual({ unreadCount: 0 });
    expect(await bea.call(notificationsApi.read, { body: { all: true, ids: [first.items[0]!.id] } })).toFail('invalid_input');
    expect(await bea.call(notificationsApi.read, { body: {} })).toFail('invalid_input');
  });

  it('mails what was left unread, once, one mail per person, unless the person turned mail off', async () => {
    const [ada, bea, cy, dee] = [await app.g.person('Ada'), await app.g.person('Bea'), await app.g.person('Cy'), await app.g.person('Dee')];
    const [one, two, three] = [await doc(ada, 'Budget'), await doc(ada, 'Hiring'), await doc(ada, 'Withdrawn')];
    for (const d of [one, two]) await share(ada, d.id, { type: 'user', id: bea.id });
    const withdrawn = (await share(ada, three.id, { type: 'user', id: bea.id })).body;
    await share(ada, one.id, { type: 'user', id: cy.id });
    await share(ada, one.id, { type: 'user', id: dee.id });
    expect((await cy.call(notificationsApi.settings)).body).toEqual({ emailUnread: true });
    expect((await cy.call(notificationsApi.updateSettings, { body: { emailUnread: false } })).body).toEqual({ emailUnread: false });
    await settled();
    await dee.call(notificationsApi.read, { body: { all: true } });
    await ada.call(grantsApi.remove, { params: { id: three.id, grantId: withdrawn.id } });

    // Not yet: they are younger than the delay.
    expect(await mailUnreadNotifications(app.t.ctx, 10)).toBe(0);
    // Other tests' people, with unread notifications of their own, are mailed too.
    expect(await mailUnreadNotifications(app.t.ctx, 0)).toBeGreaterThanOrEqual(1);
    const beaEmail = await emailOf(bea);
    const [beaMail, ...others] = outbox().filter((m) => m.to === beaEmail);
    expect(others).toEqual([]);
    expect(beaMail!.subject).toBe('You have 2 unread notifications on Cabinet');
    expect(beaMail!.text).toContain(`Ada shared “Budget” with you`);
    expect(beaMail!.text).toContain(`${app.t.url}/w/`);
    expect(beaMail!.text).toContain(`/d/${two.id}`);
    // Nothing of what Bea can no longer see.
    expect(beaMail!.text).not.toContain('Withdrawn');
    const cyEmail = await emailOf(cy);
    const deeEmail = await emailOf(dee);
    expect(outbox().filter((m) => m.to === cyEmail || m.to === deeEmail)).toEqual([]);
    // Each notification is mailed once: a second pass sends nothing, even with mail turned back on.
    await cy.call(notificationsApi.updateSettings, { body: { emailUnread: true } });
    const count = outbox().length;
    expect(await mailUnreadNotifications(app.t.ctx, 0)).toBe(0);
    expect(outbox()).toHaveLength(count);
  });

  it('mails everyone else when the mail server refuses one address, and mails that person on a later pass', async () => {
    const [ada, eve, fay] = [await app.g.person('Ada'), await app.g.person('Eve'), await app.g.person('Fay')];
    const d = await doc(ada, 'Quarterly');
    await share(ada, d.id, { type: 'user', id: eve.id });
    await share(ada, d.id, { type: 'user', id: fay.id });
    await settled();
    const [eveEmail, fayEmail] = [await emailOf(eve), await emailOf(fay)];
    const send = app.t.ctx.mailer.send;
    app.t.ctx.mailer.send = (m) => (m.to === eveEmail ? Promise.reject(new Error('mailbox refused')) : send.call(app.t.ctx.mailer, m));
    try {
      await expect(mailUnreadNotifications(app.t.ctx, 0)).rejects.toThrow('mailbox refused');
    } finally {
      app.t.ctx.mailer.send = send;
    }
    expect(outbox().filter((m) => m.to === fayEmail)).toHaveLength(1);
    expect(outbox().filter((m) => m.to === eveEmail)).toEqual([]);
    // Eve's notification was put back: the next pass mails it.
    expect(await mailUnreadNotifications(app.t.ctx, 0)).toBeGreaterThanOrEqual(1);
    expect(outbox().filter((m) => m.to === eveEmail)).toHaveLength(1);
    expect(outbox().filter((m) => m.to === fayEmail)).toHaveLength(1);
  });
  it('tells an item’s owner of a comment on it, not the commenter; a reply tells the thread and the owner too', async () => {
    const [ada, bea, cy] = [await app.g.person('Ada'), await app.g.person('Bea'), await app.g.person('Cy')];
    const plan = await doc(ada, 'Budget');
    for (const p of [bea, cy]) {
      await app.g.membership(p, ada.workspace.id, 'guest');
      await app.g.grant(plan.id, { user: p }, 'commenter');
    }
    // Ada's own comment tells no one.
    await ada.call(commentsApi.add, { params: { id: plan.id }, body: { body: 'First draft' } });
    const thread = (await bea.call(commentsApi.add, { params: { id: plan.id }, body: { body: 'Looks good' } })).body;
    await settled();
    const page = await list(ada);
    expect(page.items).toEqual([
      expect.objectContaining({
        kind: 'commented',
        item: { id: plan.id, kind: 'document', name: 'Budget' },
        actor: { id: bea.id, name: 'Bea' },
        threadId: thread.id,
        commentId: thread.id,
      }),
    ]);
    expect(describeNotification(page.items[0]!)).toBe('Bea commented on “Budget”');
    expect((await list(bea)).items).toEqual([]);
    // Cy replies: Bea hears of the reply in her thread, Ada of a comment on her document.
    await cy.call(commentsApi.add, { params: { id: plan.id }, body: { body: 'Agreed', threadId: thread.id } });
    await settled();
    expect((await list(bea)).items.map((n) => [n.kind, n.actor?.name])).toEqual([['replied', 'Cy']]);
    expect((await list(ada)).items.map((n) => [n.kind, n.actor?.name])).toEqual([
      ['commented', 'Cy'],
      ['commented', 'Bea'],
    ]);
    expect((await list(cy)).items).toEqual([]);
  });

  it('tells whom an edited comment newly mentions, not those its first words did, and not twice', async () => {
    const [ada, bea, cy, dee] = [await app.g.person('Ada'), await app.g.person('Bea'), await app.g.person('Cy'), await app.g.person('Dee')];
    const plan = await doc(ada, 'Launch');
    for (const p of [bea, cy, dee]) await app.g.membership(p, ada.workspace.id, 'member');
    const thread = (await bea.call(commentsApi.add, { params: { id: plan.id }, body: { body: '@Cy have a look', mentions: [cy.id] } })).body;
    await settled();
    expect((await list(cy)).items.map((n) => n.kind)).toEqual(['mentioned']);
    const edit = (mentions: string[]) =>
      bea.call(commentsApi.update, { params: { id: plan.id, commentId: thread.id }, body: { body: '@Cy @Dee have a look', mentions } });
    expect((await edit([cy.id, dee.id])).status).toBe(200);
    await settled();
    expect((await list(dee)).items).toEqual([
      expect.objectContaining({ kind: 'mentioned', actor: { id: bea.id, name: 'Bea' }, threadId: thread.id, commentId: thread.id }),
    ]);
    expect((await list(cy)).items).toHaveLength(1);
    // Editing again, naming the same people, tells no one; nor is an edit a new comment for the owner.
    expect((await edit([cy.id, dee.id])).status).toBe(200);
    await settled();
    expect((await list(dee)).items).toHaveLength(1);
    expect((await list(cy)).items).toHaveLength(1);
    expect((await list(ada)).items.map((n) => n.kind)).toEqual(['commented']);
  });

  it('tells a file request’s maker of the files that arrived through it, counted in one notification until it is read', async () => {
    const ada = await app.g.person('Ada');
    const inbox = await app.g.folder(ada, ada.workspace.homeId, 'Inbox');
    const request = await fileRequest(ada, inbox.id);
    await request.send('one.txt');
    await request.send('two.txt');
    await settled();
    // Read again by the recurring pass: nothing more.
    await settled();
    const page = await list(ada);
    expect(page.items).toEqual([
      expect.objectContaining({ kind: 'uploaded', item: { id: inbox.id, kind: 'folder', name: 'Inbox' }, actor: null, count: 2, readAt: null }),
    ]);
    expect(describeNotification(page.items[0]!)).toBe('2 files were uploaded to “Inbox” through your file request');
    // Once read, the next arrival is told anew; the first keeps its count.
    await ada.call(notificationsApi.read, { body: { all: true } });
    await request.send('three.txt');
    await settled();
    await settled();
    const after = await list(ada);
    expect(after.items.map((n) => [n.kind, n.count, n.readAt === null])).toEqual([
      ['uploaded', 1, true],
      ['uploaded', 2, false],
    ]);
    expect(describeNotification(after.items[0]!)).toBe('A file was uploaded to “Inbox” through your file request');
  });

  it('tells someone invited by their address, with the invitation to open and join; an invite link tells no one', async () => {
    const [ada, bea, cy] = [await app.g.person('Ada'), await app.g.person('Bea'), await app.g.person('Cy')];
    const invitation = (
      await ada.call(invitationsApi.create, { params: { ws: ada.workspace.id }, body: { role: 'member', email: (await emailOf(bea)).toUpperCase() } })
    ).body;
    expect((await ada.call(invitationsApi.create, { params: { ws: ada.workspace.id }, body: { role: 'member' } })).status).toBe(201);
    await settled();
    const page = await list(bea);
    expect(page.items).toEqual([
      expect.objectContaining({
        kind: 'invited',
        item: null,
        invitationId: invitation.id,
        actor: { id: ada.id, name: 'Ada' },
        workspace: expect.objectContaining({ id: ada.workspace.id }),
      }),
    ]);
    expect(describeNotification(page.items[0]!)).toBe(`Ada invited you to ${page.items[0]!.workspace.name}`);
    expect((await list(ada)).items).toEqual([]);
    // Opened by its id by the person it was sent to, and no one else.
    expect(await cy.call(invitationsApi.previewMine, { params: { id: invitation.id } })).toFail('not_found');
    expect(await cy.call(invitationsApi.acceptMine, { params: { id: invitation.id } })).toFail('not_found');
    expect((await bea.call(invitationsApi.previewMine, { params: { id: invitation.id } })).body).toMatchObject({
      state: 'pending',
      role: 'member',
      invitedBy: 'Ada',
      workspace: { id: ada.workspace.id },
    });
    expect((await bea.call(invitationsApi.acceptMine, { params: { id: invitation.id } })).body).toMatchObject({ joined: true, role: 'member' });
    expect(await bea.call(invitationsApi.acceptMine, { params: { id: invitation.id } })).toFail('link_expired');
  });

  it('mails each with the page it opens: a document at its thread, a folder, a file in the viewer, an invitation', async () => {
    const [ada, bea, cy] = [await app.g.person('Ada'), await app.g.person('Bea'), await app.g.person('Cy')];
    const notes = await doc(ada, 'Notes');
    await app.g.membership(bea, ada.workspace.id, 'member');
    const thread = (await bea.call(commentsApi.add, { params: { id: notes.id }, body: { body: 'Nice' } })).body;
    const drop = await app.g.folder(ada, ada.workspace.homeId, 'Drop');
    await (await fileRequest(ada, drop.id)).send('scan.pdf');
    const invitation = (await ada.call(invitationsApi.create, { params: { ws: ada.workspace.id }, body: { role: 'member', email: await emailOf(cy) } })).body;
    const minutes = (await app.g.upload(ada, ada.workspace.homeId, 'minutes.txt', new TextEncoder().encode(`Minutes ${Math.random()}`))).body.item;
    await share(ada, minutes.id, { type: 'user', id: bea.id });
    await settled();
    await mailUnreadNotifications(app.t.ctx, 0);
    const [adaEmail, beaEmail, cyEmail] = [await emailOf(ada), await emailOf(bea), await emailOf(cy)];
    const adaMail = outbox().find((m) => m.to === adaEmail && m.subject.includes('2 unread'));
    expect(adaMail?.text).toContain('Bea commented on “Notes”');
    expect(adaMail?.text).toContain(`/d/${notes.id}?thread=${thread.id}`);
    expect(adaMail?.text).toContain('A file was uploaded to “Drop” through your file request');
    expect(adaMail?.text).toContain(`/f/${drop.id}`);
    // A file opens in the viewer, as the bell's list opens it.
    const beaMail = outbox().find((m) => m.to === beaEmail && m.text.includes('minutes.txt'));
    expect(beaMail?.text).toMatch(new RegExp(`Ada shared “minutes\\.txt” with you \\(.+\\)\\n  ${app.t.url}/w/[^/]+/file/${minutes.id}\\n`));
    const cyMail = outbox().find((m) => m.to === cyEmail && m.subject.endsWith('on Cabinet') && m.text.includes('While you were away'));
    expect(cyMail?.subject).toMatch(/^Ada invited you to .+ on Cabinet$/);
    expect(cyMail?.text).toContain(`${app.t.url}/invitations/${invitation.id}`);
  });

  it('prunes notifications older than NOTIFICATION_RETENTION_DAYS, read or not, by its recurring job', async () => {
    const [ada, bea] = [await app.g.person('Ada'), await app.g.person('Bea')];
    const [old, recent] = [await doc(ada, 'Old news'), await doc(ada, 'Fresh news')];
    for (const d of [old, recent]) await share(ada, d.id, { type: 'user', id: bea.id });
    await settled();
    const days = app.t.ctx.env.NOTIFICATION_RETENTION_DAYS;
    expect(days).toBe(90);
    await app.t.ctx.db
      .updateTable('notifications')
      .set({ created_at: new Date(Date.now() - (days + 1) * 24 * 60 * 60_000) })
      .where('user_id', '=', bea.id)
      .where('item_id', '=', old.id)
      .execute();
    const job = jobDefinitions(app.t.ctx)['notifications.prune'];
    expect(job?.everyMs).toBeGreaterThan(0);
    await job!.run({}, {} as never);
    expect((await list(bea)).items.map((n) => n.item?.name)).toEqual(['Fresh news']);
  });

  it('tells a page that watches no workspace of the person’s notifications on a stream of their own', async () => {
    const [ada, bea] = [await app.g.person('Ada'), await app.g.person('Bea')];
    const controller = new AbortController();
    const res = await fetch(`${app.t.url}${urlOf(notificationsApi.events)}`, { headers: { authorization: `Bearer ${bea.token}` }, signal: controller.signal });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    let heard = '';
    let ended = false;
    void (async () => {
      const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
        if (done) return void (ended = true);
        heard += value;
      }
    })();
    await until(() => heard.includes(': connected'), 'the stream to open');
    await share(ada, (await doc(ada)).id, { type: 'user', id: bea.id });
    await until(() => heard.includes('event: notifications\ndata: {}'), 'Bea to hear of her notification', 5000);
    // Her token revoked, the stream ends at once.
    await app.t.ctx.db.deleteFrom('api_tokens').where('user_id', '=', bea.id).execute();
    await until(() => ended, 'the stream to end with her token', 5000);
    controller.abort();
  });
});

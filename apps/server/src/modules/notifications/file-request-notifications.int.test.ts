import { describe, expect, it } from 'vitest';
import { describeNotification, linksApi, notificationsApi, publicLinksApi } from '@cabinet/contracts';
import { sha256Hex } from '../../testing/given.ts';
import { linkVisitor } from '../../testing/link-visitor.ts';
import { useTestApp } from '../../testing/test-app.ts';
import { deriveNotifications } from './index.ts';

const test = useTestApp({ LOG_LEVEL: 'error' });

describe('the notification of files sent through a file request', () => {
  it('counts the files alone: the folders a visitor sends them in are not files, and an empty one tells nothing', async () => {
    const ada = await test.given.person('Ada');
    const inbox = await test.given.folder(ada, ada.workspace.homeId, 'Inbox');
    const made = await ada.call(linksApi.create, { params: { id: inbox.id }, body: { kind: 'file_request' } });
    const token = made.body.url!.split('/s/')[1]!;
    const visitor = linkVisitor(test.app.url);
    const folder = async (name: string, parentId?: string) =>
      (await visitor.call(publicLinksApi.createFolder, { params: { token }, body: { name, ...(parentId ? { parentId } : {}) } })).body.id;
    const notifications = async () => {
      await deriveNotifications(test.app.ctx.db);
      return (await ada.call(notificationsApi.list)).body.items;
    };

    await folder('Nothing yet');
    expect(await notifications()).toEqual([]);

    const day = await folder('Day 1', await folder('Album'));
    const bytes = new TextEncoder().encode('a photo');
    const start = await visitor.call(publicLinksApi.startUpload, {
      params: { token },
      body: { name: 'photo.jpg', size: bytes.length, sha256: sha256Hex(bytes), parentId: day },
    });
    const signed = await visitor.call(publicLinksApi.signParts, { params: { token, uploadId: start.body.id }, body: { partNumbers: [1] } });
    for (const part of signed.body.parts) expect((await fetch(part.url, { method: 'PUT', body: bytes })).ok).toBe(true);
    expect((await visitor.call(publicLinksApi.completeUpload, { params: { token, uploadId: start.body.id }, body: {} })).status).toBe(200);

    const told = await notifications();
    expect(told.map((n) => [n.kind, n.count])).toEqual([['uploaded', 1]]);
    expect(describeNotification(told[0]!)).toBe('A file was uploaded to “Inbox” through your file request');
  });
});

import { describe, expect, it } from 'vitest';
import { UploadManager } from './upload-manager.ts';
import type { UploadTransport } from './transport.ts';

/** A transport whose calls never answer: the uploads stay where the test puts them. */
const waiting = new Promise<never>(() => {});
const silent: UploadTransport = {
  start: () => waiting,
  status: () => waiting,
  signParts: () => waiting,
  complete: () => waiting,
  abort: () => Promise.resolve(),
};

describe('the upload manager’s snapshot', () => {
  it('keeps an unchanged upload’s copy from one snapshot to the next, so that only the changed row draws again', () => {
    const manager = new UploadManager(() => {}, silent);
    const files = ['a.txt', 'b.txt', 'c.txt'].map((name) => ({ file: new File([name], name, { type: 'text/plain' }), path: [] }));
    manager.add('ws', 'folder', files);
    const before = manager.getSnapshot();
    expect(before).toHaveLength(3);
    manager.pause(before[1]!.key);
    const after = manager.getSnapshot();
    expect(after).not.toBe(before);
    expect(after[1]).not.toBe(before[1]);
    expect(after[1]!.state).toBe('paused');
    expect(after[0]).toBe(before[0]);
    expect(after[2]).toBe(before[2]);
  });
});

import type { TActivityEntry } from '@cabinet/contracts';
import { describe, expect, it } from 'vitest';
import { actorName, describeAction, describeShown, foldSaves } from './describe.ts';

let n = 100;
const entry = (
  action: TActivityEntry['action'],
  o: { actor?: string; item?: string; data?: Record<string, unknown>; subject?: TActivityEntry['subject'] } = {},
): TActivityEntry => ({
  id: String(n--),
  at: '2026-11-23T10:00:00.000Z',
  actor: { kind: 'user', id: o.actor ?? 'ada', name: o.actor === 'bea' ? 'Bea' : 'Ada', email: null },
  action,
  item: { id: o.item ?? 'doc', name: 'Plan', kind: 'document' },
  ip: null,
  userAgent: null,
  data: o.data ?? {},
  subject: o.subject ?? null,
});

describe('foldSaves', () => {
  it('shows a run of saves by one person on one document as one entry, counting them', () => {
    const shown = foldSaves([
      entry('item.updated'),
      entry('item.updated'),
      entry('item.updated'),
      entry('item.renamed', { data: { previousName: 'Draft' } }),
      entry('item.updated'),
    ]);
    expect(shown.map((e) => [e.action, e.times])).toEqual([
      ['item.updated', 3],
      ['item.renamed', 1],
      ['item.updated', 1],
    ]);
    expect(describeShown(shown[0]!, { onItem: true })).toBe('edited it (3 times)');
    expect(describeShown(shown[1]!, { onItem: true })).toBe('renamed it from “Draft”');
  });

  it('keeps apart saves by different people, of different items, and file versions', () => {
    const shown = foldSaves([
      entry('item.updated'),
      entry('item.updated', { actor: 'bea' }),
      entry('item.updated', { actor: 'bea', item: 'other' }),
      entry('item.updated', { actor: 'bea', item: 'other', data: { version: 2 } }),
      entry('item.updated', { actor: 'bea', item: 'other', data: { version: 3 } }),
    ]);
    expect(shown.map((e) => e.times)).toEqual([1, 1, 1, 1, 1]);
    expect(describeAction(shown[3]!, { onItem: false })).toBe('uploaded version 2 of “Plan”');
  });
});

describe('describeAction', () => {
  const bea = { kind: 'user', id: 'bea', name: 'Bea Reader', email: null } as const;
  const design = { kind: 'group', id: 'design', name: 'Design', email: null } as const;

  it('names whom a change of members, groups and shares was about', () => {
    const say = (action: TActivityEntry['action'], data: Record<string, unknown>, subject: TActivityEntry['subject']) =>
      describeAction(entry(action, { data, subject }), { onItem: false });
    expect(say('group.member_added', { name: 'Design' }, bea)).toBe('added Bea Reader to the group “Design”');
    expect(say('group.member_removed', { name: 'Design', reason: 'left_workspace' }, bea)).toBe(
      'removed Bea Reader from the group “Design” (they left the workspace)',
    );
    expect(say('member.role_changed', { from: 'member', to: 'admin' }, bea)).toBe('changed the role of Bea Reader from member to admin');
    expect(say('member.removed', { name: 'Bea' }, bea)).toBe('removed Bea Reader from the workspace');
    expect(say('member.removed', { name: 'Bea' }, { ...bea, name: null })).toBe('removed Bea from the workspace');
    expect(say('item.shared', { role: 'editor' }, bea)).toBe('shared “Plan” with Bea Reader (editor)');
    expect(say('item.shared', { role: null }, design)).toBe('stopped sharing “Plan” with the group “Design”');
    expect(say('item.shared', { role: 'viewer' }, { kind: 'workspace', id: null, name: null, email: null })).toBe(
      'shared “Plan” with everyone in the workspace (viewer)',
    );
    expect(say('item.shared', { role: null }, { ...design, name: null })).toBe('stopped sharing “Plan” with a group since deleted');
  });

  it('says so when the one it was about is the one who did it', () => {
    const ada = { kind: 'user', id: 'ada', name: 'Ada', email: null } as const;
    expect(describeAction(entry('member.added', { data: { role: 'member' }, subject: ada }), { onItem: false })).toBe('joined as member');
    expect(describeAction(entry('member.role_changed', { data: { from: 'owner', to: 'admin' }, subject: ada }), { onItem: false })).toBe(
      'changed their own role from owner to admin',
    );
    expect(describeAction(entry('member.added', { data: { role: 'guest' }, subject: bea }), { onItem: false })).toBe('added Bea Reader as guest');
  });

  it('says an item came back from a backup, and which', () => {
    const fromBackup = {
      ...entry('item.restored', { data: { fromBackup: '2026-12-01T20-15-03Z' } }),
      actor: { kind: 'system' as const, id: null, name: null, email: null },
    };
    expect(`${actorName(fromBackup)} ${describeAction(fromBackup, { onItem: true })}`).toBe('Cabinet brought it back from a backup (2026-12-01T20-15-03Z)');
    expect(describeAction(entry('item.restored'), { onItem: false })).toBe('restored “Plan”');
  });

  it('says whose lock was broken, and with which client it was taken', () => {
    const ada = { kind: 'user', id: 'ada', name: 'Ada', email: null } as const;
    expect(describeAction(entry('item.unlocked', { data: { client: 'Finder' }, subject: bea }), { onItem: true })).toBe(
      'broke the lock Bea Reader held on it (Finder)',
    );
    expect(describeAction(entry('item.unlocked', { data: {}, subject: ada }), { onItem: false })).toBe('broke their own lock on “Plan”');
    expect(describeAction(entry('item.unlocked', { data: { locks: 2 } }), { onItem: true })).toBe('broke the locks on it');
  });
});

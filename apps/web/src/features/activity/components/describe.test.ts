import type { TActivityEntry } from '@cabinet/contracts';
import { describe, expect, it } from 'vitest';
import { describeAction, describeShown, foldSaves } from './describe.ts';

let n = 100;
const entry = (action: TActivityEntry['action'], o: { actor?: string; item?: string; data?: Record<string, unknown> } = {}): TActivityEntry => ({
  id: String(n--),
  at: '2026-11-23T10:00:00.000Z',
  actor: { kind: 'user', id: o.actor ?? 'ada', name: o.actor === 'bea' ? 'Bea' : 'Ada', email: null },
  action,
  item: { id: o.item ?? 'doc', name: 'Plan', kind: 'document' },
  ip: null,
  userAgent: null,
  data: o.data ?? {},
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

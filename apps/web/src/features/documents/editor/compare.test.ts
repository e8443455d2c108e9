import { describe, expect, it } from 'vitest';
import { compareDocuments } from './compare.ts';

const p = (text: string) => ({ type: 'paragraph', content: [{ type: 'text', text }] });
const h = (text: string) => ({ type: 'heading', attrs: { level: 1 }, content: [{ type: 'text', text }] });
const doc = (...content: object[]) => ({ type: 'doc', content });

describe('comparing a revision with the document now, from the older to the newer', () => {
  it('keeps equal blocks, marks blocks added and removed since, and compares changed blocks word by word', () => {
    const older = doc(h('Plan'), p('ship on Friday'), p('old note'), p('dropped'));
    const newer = doc(h('Plan'), p('ship on Monday'), p('new idea'));
    const result = compareDocuments(older, newer);
    expect(result.map((b) => b.kind)).toEqual(['same', 'changed', 'changed', 'removed']);
    const changed = result[1];
    expect(changed?.kind === 'changed' && changed.words).toEqual([
      { text: 'ship on ', is: 'kept' },
      { text: 'Friday', is: 'removed' },
      { text: 'Monday', is: 'added' },
    ]);
  });

  it('says a block only the newer has was added, and one only the older has was removed', () => {
    expect(compareDocuments(doc(p('a')), doc(p('a'), p('written since'))).map((b) => [b.kind, b.block.content?.[0]?.text])).toEqual([
      ['same', 'a'],
      ['added', 'written since'],
    ]);
    expect(compareDocuments(doc(p('a'), p('deleted since')), doc(p('a'))).map((b) => [b.kind, b.block.content?.[0]?.text])).toEqual([
      ['same', 'a'],
      ['removed', 'deleted since'],
    ]);
  });

  it('shows a block of another kind as removed and added', () => {
    const result = compareDocuments(doc(p('Title')), doc(h('Title')));
    expect(result.map((b) => [b.kind, b.block.type])).toEqual([
      ['removed', 'paragraph'],
      ['added', 'heading'],
    ]);
  });

  it('finds nothing to show when they are the same', () => {
    expect(compareDocuments(doc(p('a'), p('b')), doc(p('a'), p('b'))).every((b) => b.kind === 'same')).toBe(true);
  });
});

describe('the words of a changed block', () => {
  it('run a paragraph’s pieces together, mentions included', () => {
    const withMention = (after: string) => ({
      type: 'paragraph',
      content: [
        { type: 'text', text: 'ask ' },
        { type: 'mention', attrs: { id: 'u1', label: 'Ada' } },
        { type: 'text', text: after },
      ],
    });
    const [block] = compareDocuments(doc(withMention(' today')), doc(withMention(' tomorrow')));
    expect(block?.kind === 'changed' && block.words.map((w) => w.text).join('')).toBe('ask @Ada todaytomorrow');
  });
});

import { describe, expect, it } from 'vitest';
import { compareDocuments } from './compare.ts';

const p = (text: string) => ({ type: 'paragraph', content: [{ type: 'text', text }] });
const h = (text: string) => ({ type: 'heading', attrs: { level: 1 }, content: [{ type: 'text', text }] });
const doc = (...content: object[]) => ({ type: 'doc', content });

describe('comparing a revision with the current document', () => {
  it('keeps equal blocks, marks blocks only one side has, and compares changed blocks word by word', () => {
    const result = compareDocuments(doc(h('Plan'), p('ship on Friday'), p('old note')), doc(h('Plan'), p('ship on Monday'), p('new idea'), p('extra')));
    expect(result.map((b) => b.kind)).toEqual(['same', 'changed', 'changed', 'only-current']);
    const changed = result[1];
    expect(changed?.kind === 'changed' && changed.words).toEqual([
      { text: 'ship on ', in: 'both' },
      { text: 'Friday', in: 'revision' },
      { text: 'Monday', in: 'current' },
    ]);
  });

  it('shows a block of another kind as taken out and put in', () => {
    const result = compareDocuments(doc(p('Title')), doc(h('Title')));
    expect(result.map((b) => b.kind)).toEqual(['only-revision', 'only-current']);
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

import { describe, expect, it } from 'vitest';
import { highlightSegments } from './highlight.ts';

const name = (start: number, end: number) => ({ field: 'name' as const, start, end });
const snippet = (start: number, end: number) => ({ field: 'snippet' as const, start, end });
const joined = (segments: { text: string }[]) => segments.map((s) => s.text).join('');

describe('highlightSegments', () => {
  it('marks the matched stretches of its own field only', () => {
    expect(highlightSegments('Quarterly plan', [name(10, 14), snippet(0, 3)], 'name')).toEqual([
      { text: 'Quarterly ', marked: false },
      { text: 'plan', marked: true },
    ]);
  });

  it('joins overlapping and touching stretches, in whatever order they come', () => {
    expect(highlightSegments('abcdefgh', [name(4, 6), name(1, 3), name(2, 4)], 'name')).toEqual([
      { text: 'a', marked: false },
      { text: 'bcdef', marked: true },
      { text: 'gh', marked: false },
    ]);
  });

  it('cuts stretches past the end and ignores empty or reversed ones, keeping the text whole', () => {
    const text = 'short';
    const segments = highlightSegments(text, [name(3, 99), name(2, 2), name(4, 1), name(50, 60)], 'name');
    expect(segments).toEqual([
      { text: 'sho', marked: false },
      { text: 'rt', marked: true },
    ]);
    expect(joined(segments)).toBe(text);
  });

  it('counts offsets in UTF-16 code units, as JavaScript strings do', () => {
    // "🙂" is two code units: the word after it starts at 3.
    expect(highlightSegments('🙂 Zoë', [snippet(3, 6)], 'snippet')).toEqual([
      { text: '🙂 ', marked: false },
      { text: 'Zoë', marked: true },
    ]);
  });

  it('answers the text as one run when nothing matched', () => {
    expect(highlightSegments('plain', [], 'snippet')).toEqual([{ text: 'plain', marked: false }]);
    expect(highlightSegments('', [snippet(0, 2)], 'snippet')).toEqual([]);
  });
});

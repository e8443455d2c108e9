import { describe, expect, it } from 'vitest';
import { COMPARE_MAX_BYTES, compareLines, isComparableText } from './compare-text.ts';

describe('compareLines', () => {
  it('marks added and removed lines with their numbers in each version', () => {
    const { rows, added, removed } = compareLines('one\ntwo\nthree\n', 'one\n2\nthree\nfour\n');
    expect(rows).toEqual([
      { kind: 'same', text: 'one', before: 1, after: 1 },
      { kind: 'removed', text: 'two', before: 2, after: null },
      { kind: 'added', text: '2', before: null, after: 2 },
      { kind: 'same', text: 'three', before: 3, after: 3 },
      { kind: 'added', text: 'four', before: null, after: 4 },
    ]);
    expect([added, removed]).toEqual([2, 1]);
  });

  it('folds long unchanged runs, keeping three lines around each change', () => {
    const lines = Array.from({ length: 40 }, (_, i) => `line ${i + 1}`);
    const changed = [...lines];
    changed[19] = 'changed';
    const { rows } = compareLines(lines.join('\n'), changed.join('\n'));
    expect(rows[0]).toEqual({ kind: 'gap', lines: 16 });
    expect(rows.filter((r) => r.kind === 'same').length).toBe(6);
    expect(rows.at(-1)).toEqual({ kind: 'gap', lines: 17 });
  });

  it('reads Windows line ends as line ends, and identical texts as no change', () => {
    expect(compareLines('a\r\nb\r\n', 'a\nb\n')).toEqual({ rows: [{ kind: 'gap', lines: 2 }], added: 0, removed: 0 });
  });
});

describe('isComparableText', () => {
  it('knows text by type or by name, and refuses what is too large', () => {
    expect(isComparableText({ name: 'notes.txt', mimeType: 'text/plain' })).toBe(true);
    expect(isComparableText({ name: 'main.rs', mimeType: 'application/octet-stream' })).toBe(true);
    expect(isComparableText({ name: 'data.json', mimeType: 'application/json' })).toBe(true);
    expect(isComparableText({ name: 'Dockerfile', mimeType: null })).toBe(true);
    expect(isComparableText({ name: 'photo.jpg', mimeType: 'image/jpeg' })).toBe(false);
    expect(isComparableText({ name: 'notes.txt', mimeType: 'text/plain' }, [10, COMPARE_MAX_BYTES + 1])).toBe(false);
  });
});

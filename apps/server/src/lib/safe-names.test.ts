import { describe, expect, it } from 'vitest';
import { Names, safeSegment } from './safe-names.ts';

describe('safe names', () => {
  it('makes a name one segment any disk takes', () => {
    expect(['a/b', 'C:\\', '..', 'report.', 'trail ', 'con.txt', 'Nul', 'q?*<>|".md', 'bell\u0007\u009b'].map(safeSegment)).toEqual([
      'a_b',
      'C__',
      '__',
      'report_',
      'trail_',
      '_con.txt',
      '_Nul',
      'q______.md',
      'bell__',
    ]);
    // Cut before its extension, by whole characters, leaving room for a suffix.
    const long = safeSegment(`${'😀'.repeat(100)}.pdf`);
    expect(long.endsWith('.pdf')).toBe(true);
    expect(Buffer.byteLength(long)).toBeLessThanOrEqual(240);
    expect(long).not.toContain('\ufffd');
  });

  it('keeps names unique in each folder as a case-insensitive disk does, a document reserving its .md', () => {
    const names = new Names();
    expect(names.take('', 'Plans', true)).toBe('Plans');
    expect(names.take('', 'plans', true)).toBe('plans (2)');
    expect(names.take('Plans', 'notes.txt', false)).toBe('Plans/notes.txt');
    expect(names.take('Plans', 'Notes.TXT', false)).toBe('Plans/Notes (2).TXT');
    expect(names.take('Plans', 'Roadmap', true, '.md')).toBe('Plans/Roadmap');
    expect(names.take('Plans', 'Roadmap.md', false)).toBe('Plans/Roadmap (2).md');
    expect(names.take('Plans', 'roadmap', true)).toBe('Plans/roadmap (2)');
  });
});

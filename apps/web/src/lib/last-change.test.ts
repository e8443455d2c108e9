import { afterEach, describe, expect, it } from 'vitest';
import { changesShownSince, forgetLastChanges, noteLastChange } from './last-change.ts';

afterEach(forgetLastChanges);

describe('where a live stream starts (ADR 0046)', () => {
  it('starts from the oldest change the last minute of answers named: what the page shows is at least that fresh', () => {
    expect(changesShownSince(1_000)).toBeUndefined();
    noteLastChange('41', 1_000);
    noteLastChange('40', 2_000);
    noteLastChange('45', 3_000);
    expect(changesShownSince(3_000)).toBe(40);
  });

  it('leaves out answers older than a minute, whose lists are fetched again when shown', () => {
    noteLastChange('10', 0);
    noteLastChange('50', 30_000);
    expect(changesShownSince(59_999)).toBe(10);
    expect(changesShownSince(60_000)).toBe(50);
    expect(changesShownSince(90_000)).toBeUndefined();
  });

  it('ignores an answer without the header, or with one that is not a change id', () => {
    noteLastChange(null, 0);
    noteLastChange('', 0);
    noteLastChange('soon', 0);
    noteLastChange('-3', 0);
    noteLastChange('1e400', 0);
    expect(changesShownSince(0)).toBeUndefined();
    noteLastChange('0', 0);
    expect(changesShownSince(0)).toBe(0);
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { forgetReturn, keepRows, noteShown, rememberReturn, returnHere } from './viewer-return.ts';

/** A tab at `path` whose storage holds what it is given, or refuses every write (private mode, full). */
function tab(path: string, { refuses = false } = {}) {
  const kept = new Map<string, string>();
  vi.stubGlobal('window', { location: { pathname: path, search: '' }, scrollY: 640 });
  vi.stubGlobal('sessionStorage', {
    getItem: (k: string) => kept.get(k) ?? null,
    setItem: (k: string, v: string) => {
      if (refuses) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      kept.set(k, v);
    },
    removeItem: (k: string) => kept.delete(k),
  });
  return kept;
}

afterEach(() => vi.unstubAllGlobals());

describe('the way back from the viewer', () => {
  it('brings the list its scroll, its rows’ heights and the file shown last, once', () => {
    tab('/w/acme/my');
    expect(rememberReturn()).toEqual({ viewerFrom: '/w/acme/my' });
    keepRows('/w/acme/other', [['a', 50]]);
    keepRows('/w/acme/my', [
      ['file-1', 51],
      ['file-2', 73.5],
    ]);
    noteShown('file-2');
    expect(returnHere()).toEqual({
      path: '/w/acme/my',
      scrollY: 640,
      itemId: 'file-2',
      rows: [
        ['file-1', 51],
        ['file-2', 73.5],
      ],
    });
    forgetReturn();
    expect(returnHere()).toBeUndefined();
    // A list gone with no file opened from it keeps nothing.
    keepRows('/w/acme/my', [['file-1', 51]]);
    expect(returnHere()).toBeUndefined();
  });

  it('keeps the heights of the rows nearest the scroll, at most 1,500', () => {
    tab('/w/acme/my');
    rememberReturn();
    keepRows(
      '/w/acme/my',
      Array.from({ length: 2_000 }, (_, i): [string, number] => [`file-${i}`, 51]),
    );
    const rows = returnHere()!.rows!;
    expect(rows).toHaveLength(1_500);
    expect(rows[0]![0]).toBe('file-500');
  });

  it('still opens and shows files when the tab refuses to store anything', () => {
    const kept = tab('/w/acme/my', { refuses: true });
    expect(rememberReturn()).toEqual({ viewerFrom: '/w/acme/my' });
    kept.set('cabinet:viewer-return', JSON.stringify({ path: '/w/acme/my', scrollY: 0 }));
    expect(() => noteShown('file-2')).not.toThrow();
    expect(returnHere()).toEqual({ path: '/w/acme/my', scrollY: 0 });
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { noteShown, rememberReturn, takeReturn } from './viewer-return.ts';

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
  it('brings the list its scroll and the file shown last, once', () => {
    tab('/w/acme/my');
    expect(rememberReturn()).toEqual({ viewerFrom: '/w/acme/my' });
    noteShown('file-2');
    expect(takeReturn()).toEqual({ path: '/w/acme/my', scrollY: 640, itemId: 'file-2' });
    expect(takeReturn()).toBeUndefined();
  });

  it('still opens and shows files when the tab refuses to store anything', () => {
    const kept = tab('/w/acme/my', { refuses: true });
    expect(rememberReturn()).toEqual({ viewerFrom: '/w/acme/my' });
    kept.set('cabinet:viewer-return', JSON.stringify({ path: '/w/acme/my', scrollY: 0 }));
    expect(() => noteShown('file-2')).not.toThrow();
    expect(takeReturn()).toEqual({ path: '/w/acme/my', scrollY: 0 });
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { readStored, readStoredJson, removeStored, writeStored, writeStoredJson } from './stored.ts';

/** A browser's storage holding what it is given, or one that throws at every call (refused: private mode, sandbox). */
function storage(name: 'localStorage' | 'sessionStorage', { refuses = false } = {}) {
  const kept = new Map<string, string>();
  const refuse = () => {
    if (refuses) throw new DOMException('The operation is insecure.', 'SecurityError');
  };
  vi.stubGlobal(name, {
    getItem: (k: string) => (refuse(), kept.get(k) ?? null),
    setItem: (k: string, v: string) => (refuse(), kept.set(k, v)),
    removeItem: (k: string) => (refuse(), kept.delete(k)),
  });
  return kept;
}

afterEach(() => vi.unstubAllGlobals());

describe('what the browser keeps', () => {
  it('keeps text and JSON, in the storage asked for, and forgets them', () => {
    const local = storage('localStorage');
    const session = storage('sessionStorage');
    writeStored('a', 'text');
    writeStoredJson('b', { n: 1 }, 'session');
    expect([...local]).toEqual([['a', 'text']]);
    expect([...session]).toEqual([['b', '{"n":1}']]);
    expect(readStored('a')).toBe('text');
    expect(readStoredJson('b', 'session')).toEqual({ n: 1 });
    expect(readStored('b')).toBeUndefined();
    removeStored('a');
    removeStored('b', 'session');
    expect([local.size, session.size]).toEqual([0, 0]);
  });

  it('reads what is not JSON as nothing kept', () => {
    storage('localStorage').set('b', '{not json');
    expect(readStoredJson('b')).toBeUndefined();
    expect(readStored('b')).toBe('{not json');
  });

  it('never throws when storage is refused', () => {
    storage('localStorage', { refuses: true });
    expect(() => writeStored('a', 'text')).not.toThrow();
    expect(() => writeStoredJson('a', {})).not.toThrow();
    expect(() => removeStored('a')).not.toThrow();
    expect(readStored('a')).toBeUndefined();
    expect(readStoredJson('a')).toBeUndefined();
  });

  it('never throws where there is no storage at all', () => {
    vi.stubGlobal('sessionStorage', undefined);
    expect(() => writeStored('a', 'text', 'session')).not.toThrow();
    expect(readStored('a', 'session')).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { PreviewCache } from './preview-cache.ts';

describe('PreviewCache', () => {
  it('keeps entries within its budget, dropping the least recently used first', async () => {
    const cache = new PreviewCache<string>(40, (s) => s.length);
    let made = 0;
    const make = (s: string) => async () => {
      made++;
      return s;
    };
    await cache.get('a', make('aaaaaaaaaa'));
    await cache.get('b', make('bbbbbbbbbb'));
    await cache.get('c', make('cccccccccc'));
    await cache.get('a', make('never')); // a is now the most recent
    await cache.get('d', make('dddddddddd'));
    await cache.get('e', make('eeeeeeeeee')); // past 40: b goes
    expect(cache.size).toBeLessThanOrEqual(40);
    expect(made).toBe(5);
    expect(await cache.get('a', make('again'))).toBe('aaaaaaaaaa');
    expect(await cache.get('b', make('bbbbbbbbbb'))).toBe('bbbbbbbbbb');
    expect(made).toBe(6);
  });

  it('makes a value once for calls that ask at the same time, and forgets a failure', async () => {
    const cache = new PreviewCache<string>(100, (s) => s.length);
    let made = 0;
    const slow = async () => {
      made++;
      await new Promise((r) => setTimeout(r, 10));
      return 'x';
    };
    expect(await Promise.all([cache.get('k', slow), cache.get('k', slow)])).toEqual(['x', 'x']);
    expect(made).toBe(1);
    await expect(cache.get('f', () => Promise.reject(new Error('no')))).rejects.toThrow('no');
    expect(await cache.get('f', async () => 'ok')).toBe('ok');
  });

  it('does not keep an entry larger than a quarter of its budget', async () => {
    const cache = new PreviewCache<string>(40, (s) => s.length);
    await cache.get('big', async () => 'x'.repeat(11));
    expect(cache.size).toBe(0);
  });
});

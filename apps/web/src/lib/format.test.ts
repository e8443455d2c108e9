import { describe, expect, it } from 'vitest';
import { formatBytes } from './format.ts';

describe('formatBytes', () => {
  it('says sizes in binary units, as the limits are set: 100 GiB is "100 GiB", not "107 GB"', () => {
    expect(formatBytes(100 * 1024 ** 3)).toBe('100 GiB');
    expect(formatBytes(8 * 1024 ** 2)).toBe('8 MiB');
    expect(formatBytes(1536)).toBe('1.5 KiB');
    expect(formatBytes(12 * 1024 ** 2 + 17)).toBe('12 MiB');
    expect(formatBytes(1023)).toBe('1023 B');
    expect(formatBytes(0)).toBe('0 B');
  });

  it('says a size that rounds up to a whole next unit in that unit: "1 MiB", never "1024 KiB"', () => {
    expect(formatBytes(1024 ** 2 - 1)).toBe('1 MiB');
    expect(formatBytes(1024 ** 3 - 1024)).toBe('1 GiB');
    expect(formatBytes(1023 * 1024)).toBe('1023 KiB');
  });
});

import { describe, expect, it } from 'vitest';
import { colorFor } from './caret-color.ts';

const luminance = (hex: string) => {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
};

describe('caret colours', () => {
  it('are the same for a person every time, and differ between people', () => {
    expect(colorFor('01a20adc-9669-73d2-a65e-92ed25366cfb')).toBe(colorFor('01a20adc-9669-73d2-a65e-92ed25366cfb'));
    const many = new Set(Array.from({ length: 50 }, (_, i) => colorFor(`person-${i}`)));
    expect(many.size).toBeGreaterThan(20);
  });

  it('carry a white name at 4.5:1 or more, for every hue', () => {
    for (let i = 0; i < 2000; i++) {
      const colour = colorFor(`id-${i}-${i * 7919}`);
      expect(colour).toMatch(/^#[0-9a-f]{6}$/);
      expect(1.05 / (luminance(colour) + 0.05)).toBeGreaterThanOrEqual(4.5);
    }
  });
});

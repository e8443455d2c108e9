/**
 * A caret colour for a person, the same on every screen (`#rrggbb`, as the caret extension needs),
 * dark enough that the white name on it reads at 4.5:1.
 */
export function colorFor(id: string): string {
  let h = 0;
  for (const c of id) h = (h * 31 + c.charCodeAt(0)) % 360;
  const channel = (n: number) => {
    const k = (n + h / 30) % 12;
    return 0.45 - 0.35 * Math.max(-1, Math.min(k - 3, 9 - k, 1));
  };
  let rgb = [channel(0), channel(8), channel(4)];
  const linear = (c: number) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  const luminance = () => 0.2126 * linear(rgb[0]!) + 0.7152 * linear(rgb[1]!) + 0.0722 * linear(rgb[2]!);
  // White on it: (1 + 0.05) / (L + 0.05) ≥ 4.5 when L ≤ 0.183.
  while (luminance() > 0.18) rgb = rgb.map((c) => c * 0.9);
  return `#${rgb
    .map((c) =>
      Math.round(c * 255)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

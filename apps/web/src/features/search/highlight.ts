import type { TSearchMatch } from '@cabinet/contracts';

/** A run of text, found (`marked`) or not. */
export interface Segment {
  text: string;
  marked: boolean;
}

/**
 * `text` cut into runs at the matched stretches of one field (UTF-16 offsets, end exclusive, as the
 * API gives them): overlapping or touching stretches join, and stretches past the text's end are
 * cut to it, so whatever the offsets say the runs put together are the text, unchanged.
 */
export function highlightSegments(text: string, matches: readonly TSearchMatch[], field: TSearchMatch['field']): Segment[] {
  const ranges = matches
    .filter((m) => m.field === field)
    .map((m) => [Math.max(0, Math.min(m.start, text.length)), Math.max(0, Math.min(m.end, text.length))] as const)
    .filter(([start, end]) => end > start)
    .sort((a, b) => a[0] - b[0]);
  const segments: Segment[] = [];
  let at = 0;
  for (const [start, end] of ranges) {
    if (end <= at) continue;
    const from = Math.max(start, at);
    if (from > at) segments.push({ text: text.slice(at, from), marked: false });
    const last = segments.at(-1);
    // Touching stretches read as one word.
    if (last?.marked && from === at) last.text += text.slice(from, end);
    else segments.push({ text: text.slice(from, end), marked: true });
    at = end;
  }
  if (at < text.length) segments.push({ text: text.slice(at), marked: false });
  return segments;
}

import type { TSearchMatch } from '@cabinet/contracts';
import { Fragment } from 'react';
import { highlightSegments } from '../highlight.ts';

/** Dark text on yellow in both themes: above 12:1, and marked by more than colour to a screen reader (a <mark>). */
const MARK = { background: 'var(--mantine-color-yellow-3)', color: 'var(--mantine-color-black)', borderRadius: 2, padding: 0 };

/** A name or a snippet with the words found in it marked, from the API's offsets: text only, never markup. */
export function Highlighted({ text, matches, field }: { text: string; matches: readonly TSearchMatch[]; field: TSearchMatch['field'] }) {
  return (
    <>
      {highlightSegments(text, matches, field).map((s, i) =>
        s.marked ? (
          <mark key={i} style={MARK}>
            {s.text}
          </mark>
        ) : (
          <Fragment key={i}>{s.text}</Fragment>
        ),
      )}
    </>
  );
}

import type { CSSProperties } from 'react';

/**
 * A live region heard but not seen (what it says is on screen otherwise): styled away rather than
 * swapped for another element, since a region that appears with its text already in it is often
 * not announced.
 */
export const HEARD_ONLY: CSSProperties = {
  position: 'absolute',
  width: 1,
  height: 1,
  padding: 0,
  margin: -1,
  overflow: 'hidden',
  clipPath: 'inset(50%)',
  whiteSpace: 'nowrap',
  border: 0,
};

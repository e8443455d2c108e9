import { useEffect, useLayoutEffect, useRef } from 'react';
import type { ShownSnapshot } from '../hooks/use-document-snapshot.ts';
import '../../../components/ui/code-colours.css';
import './document-editor.css';

/**
 * A document as this browser last showed it, read-only, where its editor will be. The element is
 * put in by hand, not rendered by React, so that the page can take it out in the same task in which
 * the editor shows the document (the text is never on the page twice).
 */
export function SnapshotView({ snapshot, onPainted }: { snapshot: ShownSnapshot; /** Once the browser has painted it. */ onPainted: () => void }) {
  const host = useRef<HTMLDivElement>(null);
  const painted = useRef(onPainted);
  useEffect(() => {
    painted.current = onPainted;
  });
  useLayoutEffect(() => {
    const { element } = snapshot;
    host.current?.append(element);
    performance.mark('cabinet:document-snapshot');
    // A frame's callbacks run just before it is painted; a task queued from one runs after. A
    // hidden tab paints no frames: there it is told at once.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = document.hidden ? 0 : requestAnimationFrame(() => (timer = setTimeout(() => painted.current())));
    if (document.hidden) timer = setTimeout(() => painted.current());
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
      element.remove();
    };
  }, [snapshot]);
  return <div ref={host} aria-busy="true" />;
}

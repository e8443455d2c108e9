import { useEffect, useLayoutEffect, useRef } from 'react';
import { readStoredJson, writeStoredJson } from '../../../lib/stored.ts';
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

/**
 * Where the editor put its frame and its text, below the snapshot's own places, when it last took over in a window of
 * this width: its status row and toolbar come above the text. The snapshot is shown that much lower, so that nothing
 * moves when the editor takes its place.
 */
interface EditorPlace {
  width: number;
  /** How much lower the editor's frame began than the snapshot's. */
  frame: number;
  /** How much lower, within the frame, its text began. */
  text: number;
}
const PLACE_KEY = 'cabinet:editor-place';
const MOST = 400;

/** The room to leave above the snapshot (its frame) and above its text, in this window. */
export function editorPlace(): { frame: number; text: number } {
  // Storage refused or unreadable: the snapshot is shown in its own place.
  const place = readStoredJson<EditorPlace | null>(PLACE_KEY);
  return place?.width === window.innerWidth ? { frame: place.frame, text: place.text } : { frame: 0, text: 0 };
}

const top = (element: Element | null | undefined) => element?.getBoundingClientRect().top;
const within = (n: number) => Math.min(MOST, Math.max(0, Math.round(n)));

/**
 * Changes places: the snapshot (its frame, and its element with its first block) goes, the editor's box is shown; and
 * where the editor then shows its frame and its first block, against where the snapshot showed them (with the room it
 * was given), is noted for the next time, in one task.
 */
export function changePlaces(snapshotFrame: HTMLElement | null, snapshotElement: HTMLElement | undefined, editorBox: HTMLElement | null): void {
  const [sf, st] = [top(snapshotFrame), top(snapshotElement?.querySelector(':scope > div > :first-child'))];
  snapshotElement?.remove();
  if (snapshotFrame) snapshotFrame.style.display = 'none';
  if (editorBox) editorBox.style.display = 'contents';
  const editorText = editorBox?.querySelector('.ProseMirror > :first-child');
  const [ef, et] = [top(editorText?.closest('.mantine-Paper-root')), top(editorText)];
  if (sf === undefined || st === undefined || ef === undefined || et === undefined) return;
  const given = editorPlace();
  const place: EditorPlace = { width: window.innerWidth, frame: within(given.frame + ef - sf), text: within(given.text + et - ef - (st - sf)) };
  writeStoredJson(PLACE_KEY, place);
}

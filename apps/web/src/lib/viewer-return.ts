/**
 * Where the viewer goes back to: the list a file was opened from (its address and how far the page
 * was scrolled) and the file last shown, kept for the tab's life (sessionStorage), so Escape after a
 * reload of the viewer still lands on the same place in the list. Small and free of imports: the
 * lists that open files load it with the first page (hence here in lib/, not in features/viewer).
 */
const KEY = 'cabinet:viewer-return';

export interface ReturnPoint {
  path: string;
  scrollY: number;
  /**
   * The row the file was opened from and how far below the viewport's top it stood: a long list comes back with
   * its rows estimated until they show, so the scroll alone can land rows off; the list puts this row back here.
   */
  anchor?: { itemId: string; top: number } | undefined;
  /** The file the viewer showed last: the list puts the keyboard on it. */
  itemId?: string | undefined;
}

/** The state a list gives the viewer's page: that it was opened from this list (so closing goes back in history). */
export interface ViewerState {
  viewerFrom: string;
}

const here = () => window.location.pathname + window.location.search;

/**
 * Called as a list opens a file: remembers the list, its scroll and, when given, the file's row (an element in it)
 * and where it stood; answers the state to navigate with.
 */
export function rememberReturn(from?: { itemId: string; element: Element | null | undefined }): ViewerState {
  // The row's place, as the list measures it on return (no row, no place: the scroll alone is kept).
  const row = from?.element?.closest('[data-row]');
  const anchor = from && row ? { itemId: from.itemId, top: row.getBoundingClientRect().top } : undefined;
  const point: ReturnPoint = { path: here(), scrollY: window.scrollY, anchor };
  writePoint(point);
  return { viewerFrom: point.path };
}

/** The viewer notes the file it shows, so the list marks it when the person comes back. */
export function noteShown(itemId: string): void {
  const point = readPoint();
  if (point) writePoint({ ...point, itemId });
}

function writePoint(point: ReturnPoint): void {
  try {
    sessionStorage.setItem(KEY, JSON.stringify(point));
  } catch {
    // Storage refused (private mode, full): closing still goes back, at the top of the list.
  }
}

function readPoint(): ReturnPoint | undefined {
  try {
    const raw = sessionStorage.getItem(KEY);
    return raw ? (JSON.parse(raw) as ReturnPoint) : undefined;
  } catch {
    return undefined;
  }
}

/** The list's own return point, once: a list at the address a file was opened from takes it (and it is gone). */
export function takeReturn(): ReturnPoint | undefined {
  const point = readPoint();
  if (!point || point.path !== here()) return undefined;
  sessionStorage.removeItem(KEY);
  return point;
}

import { readStoredJson, removeStored, writeStoredJson } from './stored.ts';

/**
 * Where the viewer goes back to: the list a file was opened from (its address and how far the page
 * was scrolled) and the file last shown, kept for the tab's life (sessionStorage), so Escape after a
 * reload of the viewer still lands on the same place in the list. Small, and importing only lib/stored.ts:
 * the lists that open files load it with the first page (hence here in lib/, not in features/viewer).
 */
const KEY = 'cabinet:viewer-return';

export interface ReturnPoint {
  path: string;
  scrollY: number;
  /** The file the viewer showed last: the list puts the keyboard on it. */
  itemId?: string | undefined;
  /**
   * The heights the list had measured of its rows (by item id) as it was left: it comes back placing them as it
   * did, so the same scroll shows the same rows where they stood.
   */
  rows?: Array<[string, number]> | undefined;
}

/** The state a list gives the viewer's page: that it was opened from this list (so closing goes back in history). */
export interface ViewerState {
  viewerFrom: string;
}

const here = () => window.location.pathname + window.location.search;

/** Called as a list opens a file: remembers the list and its scroll; answers the state to navigate with. */
export function rememberReturn(): ViewerState {
  const point: ReturnPoint = { path: here(), scrollY: window.scrollY };
  writePoint(point);
  return { viewerFrom: point.path };
}

/** At most this many rows' heights are kept (about 60 KB): a list scrolled further comes back estimating the rest. */
const ROWS_KEPT = 1_500;

/**
 * Called as a list goes away: the heights of its rows (`[id, px]`, in list order) go with its return point, when a
 * file was opened from it. The rows nearest the scroll are kept, the first of them dropped past ROWS_KEPT.
 */
export function keepRows(path: string, rows: Array<[string, number]>): void {
  const point = readPoint();
  if (point?.path === path) writePoint({ ...point, rows: rows.slice(-ROWS_KEPT) });
}

/** The viewer notes the file it shows, so the list marks it when the person comes back. */
export function noteShown(itemId: string): void {
  const point = readPoint();
  if (point) writePoint({ ...point, itemId });
}

// With storage refused (private mode, full), closing still goes back, at the top of the list.
const writePoint = (point: ReturnPoint) => writeStoredJson(KEY, point, 'session');
const readPoint = () => readStoredJson<ReturnPoint>(KEY, 'session') ?? undefined;

/** The list's own return point, if a file was opened from the list at this address: read as the list is first drawn. */
export function returnHere(): ReturnPoint | undefined {
  const point = readPoint();
  return point?.path === here() ? point : undefined;
}

/** The return point is used: a list drawn here again later starts at its top. */
export const forgetReturn = (): void => removeStored(KEY, 'session');

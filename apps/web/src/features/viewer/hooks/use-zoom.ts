import { useState } from 'react';
import { useViewerKeys } from './use-viewer-keys.ts';

const STEPS = [0.25, 0.33, 0.5, 0.67, 0.75, 0.9, 1, 1.1, 1.25, 1.5, 1.75, 2, 2.5, 3, 4, 5];
export const MIN_ZOOM = STEPS[0]!;
export const MAX_ZOOM = STEPS.at(-1)!;

const step = (current: number, direction: 1 | -1) =>
  direction > 0 ? (STEPS.find((s) => s > current + 0.001) ?? MAX_ZOOM) : ([...STEPS].reverse().find((s) => s < current - 0.001) ?? MIN_ZOOM);

export type Zoom = ReturnType<typeof useZoom>;

/**
 * A zoom level: `null` is "fit", a number a scale. `fitted` is the scale "fit" shows at now (the
 * renderer decides what fits), which zooming starts from. In and out step through common levels;
 * + and − zoom and 0 fits again while `keys` is on (the viewer's keys).
 */
export function useZoom(fitted: number, keys = true) {
  const [zoom, setZoom] = useState<number | null>(null);
  const zoomIn = () => setZoom((z) => step(z ?? fitted, 1));
  const zoomOut = () => setZoom((z) => step(z ?? fitted, -1));
  const reset = () => setZoom(null);
  useViewerKeys((e) => {
    if (e.key === '+' || e.key === '=') zoomIn();
    else if (e.key === '-' || e.key === '_') zoomOut();
    else if (e.key === '0') reset();
    else return false;
    return true;
  }, keys);
  return { zoom, zoomIn, zoomOut, reset };
}

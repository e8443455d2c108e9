import { useState } from 'react';

const STEPS = [0.25, 0.33, 0.5, 0.67, 0.75, 0.9, 1, 1.1, 1.25, 1.5, 1.75, 2, 2.5, 3, 4, 5];

/** A zoom level: `null` is "fit" (the renderer decides what fits), a number a scale. In and out step through common levels. */
export function useZoom() {
  const [zoom, setZoom] = useState<number | null>(null);
  const step = (current: number, direction: 1 | -1) =>
    direction > 0 ? (STEPS.find((s) => s > current + 0.001) ?? STEPS.at(-1)!) : ([...STEPS].reverse().find((s) => s < current - 0.001) ?? STEPS[0]!);
  return {
    zoom,
    /** `fitted`: the scale "fit" shows at now, which zooming starts from. */
    zoomIn: (fitted: number) => setZoom((z) => step(z ?? fitted, 1)),
    zoomOut: (fitted: number) => setZoom((z) => step(z ?? fitted, -1)),
    reset: () => setZoom(null),
    min: STEPS[0]!,
    max: STEPS.at(-1)!,
  };
}

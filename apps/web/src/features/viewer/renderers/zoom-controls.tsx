import { ActionIcon, Group, Text, Tooltip } from '@mantine/core';
import { IconZoomIn, IconZoomOut, IconZoomReset } from '@tabler/icons-react';
import { MAX_ZOOM, MIN_ZOOM, type Zoom } from '../hooks/use-zoom.ts';

/** Zoom out, the level (`scale`, as shown), zoom in and back to fit: labelled buttons, the level read out as it changes. */
export function ZoomControls({ zoom, scale }: { zoom: Zoom; scale: number }) {
  return (
    <Group gap={4} wrap="nowrap">
      <Tooltip label="Zoom out (−)">
        <ActionIcon variant="default" aria-label="Zoom out" onClick={zoom.zoomOut} disabled={scale <= MIN_ZOOM + 0.001}>
          <IconZoomOut aria-hidden size={18} />
        </ActionIcon>
      </Tooltip>
      <Text size="sm" w={48} ta="center" aria-live="polite">
        {Math.round(scale * 100)}%
      </Text>
      <Tooltip label="Zoom in (+)">
        <ActionIcon variant="default" aria-label="Zoom in" onClick={zoom.zoomIn} disabled={scale >= MAX_ZOOM - 0.001}>
          <IconZoomIn aria-hidden size={18} />
        </ActionIcon>
      </Tooltip>
      <Tooltip label="Fit (0)">
        <ActionIcon variant="default" aria-label="Fit to screen" onClick={zoom.reset} disabled={zoom.zoom === null}>
          <IconZoomReset aria-hidden size={18} />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}

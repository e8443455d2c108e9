import { ActionIcon, Group, Text, Tooltip } from '@mantine/core';
import { IconZoomIn, IconZoomOut, IconZoomReset } from '@tabler/icons-react';

/** Zoom out, the level, zoom in and back to fit: labelled buttons, the level read out as it changes. */
export function ZoomControls(props: { scale: number; fitted: boolean; onIn: () => void; onOut: () => void; onReset: () => void; min: number; max: number }) {
  return (
    <Group gap={4} wrap="nowrap">
      <Tooltip label="Zoom out (−)">
        <ActionIcon variant="default" aria-label="Zoom out" onClick={props.onOut} disabled={props.scale <= props.min + 0.001}>
          <IconZoomOut aria-hidden size={18} />
        </ActionIcon>
      </Tooltip>
      <Text size="sm" w={48} ta="center" aria-live="polite">
        {Math.round(props.scale * 100)}%
      </Text>
      <Tooltip label="Zoom in (+)">
        <ActionIcon variant="default" aria-label="Zoom in" onClick={props.onIn} disabled={props.scale >= props.max - 0.001}>
          <IconZoomIn aria-hidden size={18} />
        </ActionIcon>
      </Tooltip>
      <Tooltip label="Fit (0)">
        <ActionIcon variant="default" aria-label="Fit to screen" onClick={props.onReset} disabled={props.fitted}>
          <IconZoomReset aria-hidden size={18} />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}

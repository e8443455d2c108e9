import { Group, Text } from '@mantine/core';
import { IconFolders } from '@tabler/icons-react';

/** The mark and the name; `compact` hides the name on narrow screens, where the header has no room for it. */
export function Logo({ size = 'lg', compact = false }: { size?: 'md' | 'lg' | 'xl'; compact?: boolean }) {
  return (
    <Group gap={8} wrap="nowrap">
      <IconFolders aria-hidden size={size === 'xl' ? 36 : 26} color="var(--mantine-primary-color-filled)" stroke={1.8} />
      <Text fw={700} fz={size === 'xl' ? 28 : size} visibleFrom={compact ? 'xs' : undefined}>
        Cabinet
      </Text>
    </Group>
  );
}

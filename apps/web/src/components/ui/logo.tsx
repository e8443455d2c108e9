import { Group, Text } from '@mantine/core';
import { IconFolders } from '@tabler/icons-react';

export function Logo({ size = 'lg' }: { size?: 'md' | 'lg' | 'xl' }) {
  return (
    <Group gap={8} wrap="nowrap">
      <IconFolders aria-hidden size={size === 'xl' ? 36 : 26} color="var(--mantine-primary-color-filled)" stroke={1.8} />
      <Text fw={700} fz={size === 'xl' ? 28 : size}>
        Cabinet
      </Text>
    </Group>
  );
}

import { Button, Group, Progress, Text } from '@mantine/core';

/** How far a file to import has gone up, and a way to stop it. */
export function ImportProgress({ name, fraction, onCancel }: { name: string; fraction: number; onCancel: () => void }) {
  const percent = Math.round(fraction * 100);
  return (
    <Group gap="xs" wrap="nowrap">
      <Progress value={percent} aria-label={`Importing ${name}`} style={{ flex: 1 }} />
      <Text size="xs" w={36} ta="right">
        {percent}%
      </Text>
      <Button size="compact-xs" variant="subtle" color="gray" onClick={onCancel}>
        Cancel
      </Button>
    </Group>
  );
}

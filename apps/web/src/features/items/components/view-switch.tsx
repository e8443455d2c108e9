import { Group, SegmentedControl, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { IconLayoutGrid, IconList } from '@tabler/icons-react';

/** Switches between the list and the grid. */
export function ViewSwitch({ value, onChange }: { value: 'list' | 'grid'; onChange: (view: 'list' | 'grid') => void }) {
  return (
    <SegmentedControl
      aria-label="View"
      size="xs"
      value={value}
      onChange={(v) => onChange(v as 'list' | 'grid')}
      data={[
        { value: 'list', label: <Label icon={<IconList aria-hidden size={16} />} text="List" /> },
        { value: 'grid', label: <Label icon={<IconLayoutGrid aria-hidden size={16} />} text="Grid" /> },
      ]}
    />
  );
}

function Label({ icon, text }: { icon: ReactNode; text: string }) {
  return (
    <Group gap={4} wrap="nowrap">
      {icon}
      <Text size="xs" span>
        {text}
      </Text>
    </Group>
  );
}

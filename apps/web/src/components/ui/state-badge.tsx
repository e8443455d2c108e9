import { Badge } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconCircleDashed, IconHourglass } from '@tabler/icons-react';
import type { ReactNode } from 'react';

const TONES = {
  good: { icon: IconCircleCheck, color: 'var(--mantine-color-green-7)' },
  bad: { icon: IconAlertTriangle, color: 'var(--mantine-color-danger-6)' },
  busy: { icon: IconHourglass, color: 'var(--mantine-color-blue-6)' },
  none: { icon: IconCircleDashed, color: 'var(--mantine-color-dimmed)' },
} as const;

/**
 * A state in words (Working, Failed…), its tone told by an icon beside them: the words keep the contrast text needs in
 * either theme, whatever the tone's colour.
 */
export function StateBadge({ tone, children, w, size, mr }: { tone: keyof typeof TONES; children: ReactNode; w?: number; size?: 'xs' | 'sm'; mr?: number }) {
  const { icon: Icon, color } = TONES[tone];
  return (
    <Badge
      variant="outline"
      color="gray"
      w={w}
      size={size}
      mr={mr}
      component="span"
      style={{ flexShrink: 0 }}
      leftSection={<Icon aria-hidden size={size === 'xs' ? 10 : 12} color={color} />}
    >
      {children}
    </Badge>
  );
}

import { Button, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { ReactNode } from 'react';

/** A notification saying what just happened, with an Undo button that reverses it. */
export function showUndo(message: ReactNode, undo: () => void) {
  const id = notifications.show({
    // Long enough to read and reach for Undo.
    autoClose: 8000,
    message: (
      <Group justify="space-between" wrap="nowrap">
        <Text size="sm">{message}</Text>
        <Button
          size="compact-sm"
          variant="subtle"
          onClick={() => {
            undo();
            notifications.hide(id);
          }}
        >
          Undo
        </Button>
      </Group>
    ),
  });
}

import { Button, Group, Paper, Text } from '@mantine/core';
import { IconDownload, IconFolderShare, IconTrash, IconUserShare, IconX } from '@tabler/icons-react';
import { filesApi, urlOf, type TItem } from '@cabinet/contracts';
import type { ItemDialog } from './item-actions.tsx';

interface SelectionBarProps {
  ws: string;
  /** The selected items (at least one). */
  chosen: TItem[];
  onDialog: (dialog: ItemDialog, items: TItem[]) => void;
  onTrash: (items: TItem[]) => void;
  onClear: () => void;
}

/** Above a list with a selection: how many are selected, and what can be done with all of them (each offered only when every one allows it). */
export function SelectionBar({ ws, chosen, onDialog, onTrash, onClear }: SelectionBarProps) {
  return (
    <Paper withBorder p="xs" radius="md" pos="sticky" top={64} style={{ zIndex: 3 }} aria-label="Selection">
      <Group justify="space-between" gap="xs">
        <Text size="sm" fw={500} role="status">
          {chosen.length} selected
        </Text>
        <Group gap="xs">
          {chosen.every((i) => i.abilities.download) && (
            <Button
              size="compact-sm"
              variant="light"
              component="a"
              href={urlOf(filesApi.zip, { ws }, { ids: chosen.map((i) => i.id).join(',') })}
              leftSection={<IconDownload aria-hidden size={16} />}
            >
              Download
            </Button>
          )}
          {chosen.length === 1 && chosen[0]!.abilities.share && (
            <Button size="compact-sm" variant="light" leftSection={<IconUserShare aria-hidden size={16} />} onClick={() => onDialog('share', chosen)}>
              Share
            </Button>
          )}
          {chosen.every((i) => i.abilities.edit) && (
            <Button size="compact-sm" variant="light" leftSection={<IconFolderShare aria-hidden size={16} />} onClick={() => onDialog('move', chosen)}>
              Move to…
            </Button>
          )}
          {chosen.every((i) => i.abilities.trash) && (
            <Button size="compact-sm" variant="light" color="red" leftSection={<IconTrash aria-hidden size={16} />} onClick={() => onTrash(chosen)}>
              Move to trash
            </Button>
          )}
          <Button size="compact-sm" variant="subtle" color="gray" leftSection={<IconX aria-hidden size={16} />} onClick={onClear}>
            Clear selection
          </Button>
        </Group>
      </Group>
    </Paper>
  );
}

import { Button, Checkbox, Group, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useUploader, useUploadTasks } from '../hooks/use-uploader.ts';

/** Asks, one conflict at a time, what to do with an upload whose name is taken: keep both, replace, or skip. */
export function ConflictDialog() {
  const manager = useUploader();
  const tasks = useUploadTasks();
  const [forAll, setForAll] = useState(false);
  const conflicts = tasks.filter((t) => t.state === 'conflict');
  const task = conflicts[0];
  if (!task) return null;
  const answer = (choice: 'keep_both' | 'replace' | 'skip') => {
    manager.resolveConflict(task.key, choice, forAll);
    setForAll(false);
  };
  return (
    <Modal opened onClose={() => answer('skip')} title="A file with this name already exists" centered>
      <Stack>
        <Text size="sm">
          “{task.name}” is already in this folder. Keep both (the new one is saved as “{task.suggestedName}”), replace it with a new version, or skip this file?
        </Text>
        {conflicts.length > 1 && (
          <Checkbox label={`Do this for all ${conflicts.length} conflicts`} checked={forAll} onChange={(e) => setForAll(e.currentTarget.checked)} />
        )}
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={() => answer('skip')}>
            Skip
          </Button>
          <Button variant="light" onClick={() => answer('replace')}>
            Replace
          </Button>
          <Button onClick={() => answer('keep_both')} data-autofocus>
            Keep both
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

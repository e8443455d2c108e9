import { Button, Checkbox, Group, Modal, Stack, Text } from '@mantine/core';
import type { TItem } from '@cabinet/contracts';
import { useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { useState } from 'react';
import { LockedConfirm } from '../../../components/ui/confirm-dialog.tsx';
import { queryKeys } from '../../../lib/query-keys.ts';
import { useMe } from '../../auth/api/use-me.ts';
import { useUploader, useUploadTasks } from '../hooks/use-uploader.ts';
import type { UploadTask } from '../uploader/upload-queue.ts';

/** The file a conflicting upload would replace, as the folder's list on the page shows it (with its lock), when it is loaded. */
function useShownFile(task: UploadTask | undefined): TItem | undefined {
  const client = useQueryClient();
  if (!task || task.folderPath.length) return undefined;
  const listing = client.getQueryData<InfiniteData<{ items: TItem[] }>>(queryKeys.children(task.workspaceId, task.targetId));
  const name = task.name.toLowerCase();
  return listing?.pages.flatMap((p) => p.items).find((i) => i.kind === 'file' && i.name.toLowerCase() === name);
}

/**
 * Asks, one conflict at a time, what to do with an upload whose name is taken: keep both, replace, or skip. Replacing
 * a file a WebDAV client holds a lock on is asked about once more.
 */
export function ConflictDialog() {
  const manager = useUploader();
  const tasks = useUploadTasks();
  const me = useMe();
  const [forAll, setForAll] = useState(false);
  const [replacingLocked, setReplacingLocked] = useState(false);
  const conflicts = tasks.filter((t) => t.state === 'conflict');
  const task = conflicts[0];
  const shown = useShownFile(task);
  if (!task) return null;
  const answer = (choice: 'keep_both' | 'replace' | 'skip') => {
    manager.resolveConflict(task.key, choice, forAll);
    setForAll(false);
    setReplacingLocked(false);
  };
  if (replacingLocked && shown?.lock) {
    return (
      <LockedConfirm
        name={shown.name}
        lock={shown.lock}
        meId={me.data?.user.id}
        confirmLabel="Replace anyway"
        onConfirm={() => answer('replace')}
        onClose={() => setReplacingLocked(false)}
      />
    );
  }
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
          <Button variant="light" onClick={() => (shown?.lock ? setReplacingLocked(true) : answer('replace'))}>
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

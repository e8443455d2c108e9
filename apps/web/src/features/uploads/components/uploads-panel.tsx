import { ActionIcon, Affix, Button, FileButton, Group, Paper, Progress, ScrollArea, Stack, Text, Tooltip } from '@mantine/core';
import { IconChevronDown, IconChevronUp, IconPlayerPause, IconPlayerPlay, IconRefresh, IconX } from '@tabler/icons-react';
import { memo, useCallback, useState } from 'react';
import { formatBytes, formatDuration } from '../../../lib/format.ts';
import { useUploader, useUploadTasks } from '../hooks/use-uploader.ts';
import { isActive, isEnded, type UploadTask } from '../uploader/upload-queue.ts';
import { keepRoomBelow, UPLOADS_ROOM } from '../../../components/ui/room-below.ts';

const STATUS: Record<UploadTask['state'], string> = {
  queued: 'Waiting',
  checking: 'Checking…',
  uploading: 'Uploading',
  verifying: 'Checking',
  paused: 'Paused',
  conflict: 'Name already taken',
  'needs-file': 'Choose the file again to resume',
  done: 'Uploaded',
  failed: 'Failed',
  cancelled: 'Cancelled',
  skipped: 'Skipped',
};

const ON_A_PHONE = '(max-width: 576px)';
/** States that wait for the person: a failure to retry, a name taken, a file to choose again. */
const needsAnswer = (t: UploadTask) => t.state === 'failed' || t.state === 'conflict' || t.state === 'needs-file';

/** Keeps the panel's height (and the gap below it) as the room the page leaves at its end, while the panel is shown. */
function useRoomBelow() {
  return useCallback((panel: HTMLElement | null) => (panel ? keepRoomBelow(panel, UPLOADS_ROOM) : undefined), []);
}

/** Every upload of this page: overall and per-file progress, speed and time left; pause, resume, cancel. */
export function UploadsPanel() {
  const manager = useUploader();
  const tasks = useUploadTasks();
  const roomBelow = useRoomBelow();
  // On a phone the list would cover the page: it starts folded, the summary stays.
  const [collapsed, setCollapsed] = useState(() => window.matchMedia(ON_A_PHONE).matches);
  // Once every upload has gone through the list folds by itself (the summary stays); one that needs an
  // answer unfolds it, and one skipped or cancelled keeps it as it is, for the person to see.
  const settled = tasks.every((t) => t.state === 'done');
  const asked = tasks.filter(needsAnswer).length;
  const [seen, setSeen] = useState({ settled: false, asked: 0 });
  if (seen.settled !== settled || seen.asked !== asked) {
    setSeen({ settled, asked });
    if (asked > seen.asked) setCollapsed(false);
    else if (settled) setCollapsed(true);
    else if (seen.settled) setCollapsed(window.matchMedia(ON_A_PHONE).matches);
  }
  if (tasks.length === 0) return null;
  const totals = manager.totals();
  const percent = totals.size > 0 ? Math.floor((totals.loaded / totals.size) * 100) : 100;
  const waiting = tasks.filter((t) => t.state === 'needs-file').length;
  const asking = tasks.filter((t) => t.state === 'conflict').length;
  const title =
    totals.active > 0
      ? `Uploading ${totals.active} ${totals.active === 1 ? 'file' : 'files'}`
      : asking > 0
        ? `${asking} ${asking === 1 ? 'upload waits' : 'uploads wait'} for your answer`
        : waiting > 0
          ? `${waiting} ${waiting === 1 ? 'upload' : 'uploads'} to resume`
          : tasks.some((t) => t.state === 'failed')
            ? 'Some uploads failed'
            : tasks.some((t) => t.state === 'paused')
              ? 'Uploads paused'
              : 'Uploads complete';
  const finished = tasks.every((t) => ['done', 'cancelled', 'skipped', 'failed'].includes(t.state));
  return (
    <Affix position={{ bottom: 16, right: 16 }} zIndex={200}>
      <Paper ref={roomBelow} component="section" aria-label="Uploads" shadow="lg" withBorder radius="md" w={{ base: 'calc(100vw - 32px)', xs: 380 }}>
        <Stack gap={6} p="sm">
          <Group justify="space-between" wrap="nowrap" gap="xs">
            <Text fw={600} size="sm" role="status" aria-live="polite">
              {title}
            </Text>
            <Group gap={4} wrap="nowrap">
              <Tooltip label={collapsed ? 'Show uploads' : 'Hide uploads'}>
                <ActionIcon
                  variant="subtle"
                  color="gray"
                  aria-label={collapsed ? 'Show uploads' : 'Hide uploads'}
                  aria-expanded={!collapsed}
                  onClick={() => setCollapsed((c) => !c)}
                >
                  {collapsed ? <IconChevronUp size={18} /> : <IconChevronDown size={18} />}
                </ActionIcon>
              </Tooltip>
              {finished && (
                <Tooltip label="Close">
                  <ActionIcon variant="subtle" color="gray" aria-label="Close uploads" onClick={() => manager.clearFinished()}>
                    <IconX size={18} />
                  </ActionIcon>
                </Tooltip>
              )}
            </Group>
          </Group>
          <Progress value={percent} aria-label="Overall upload progress" size="sm" />
          <Text size="xs" c="dimmed">
            {formatBytes(totals.loaded)} of {formatBytes(totals.size)}
            {totals.active > 0 && totals.speed > 0 ? ` · ${formatBytes(totals.speed)}/s` : ''}
            {totals.active > 0 && totals.secondsLeft !== undefined ? ` · ${formatDuration(totals.secondsLeft)} left` : ''}
          </Text>
          {!collapsed && (
            <ScrollArea.Autosize mah={280} type="auto">
              <Stack gap={10} component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
                {tasks.map((task) => (
                  <UploadRow key={task.key} task={task} />
                ))}
              </Stack>
            </ScrollArea.Autosize>
          )}
        </Stack>
      </Paper>
    </Affix>
  );
}

/**
 * One upload: its progress and state, and what can be done with it (pause, resume, retry, cancel, give its file again).
 * Drawn again only when its task changed: the manager keeps an unchanged task's copy (sixty files uploading drew every
 * row at each one's progress).
 */
export const UploadRow = memo(function UploadRow({ task }: { task: UploadTask }) {
  const manager = useUploader();
  const [fileError, setFileError] = useState<string>();
  const shown = task.state === 'checking' ? task.checked : task.loaded;
  const percent = task.size > 0 ? Math.floor((shown / task.size) * 100) : task.state === 'done' ? 100 : 0;
  const live = isActive(task.state);
  const path = task.folderPath.length ? `${task.folderPath.join('/')}/` : '';
  return (
    <li aria-label={`Upload of ${task.name}`}>
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <Stack gap={2} style={{ minWidth: 0, flex: 1 }}>
          <Text size="sm" truncate="end" title={path + task.name}>
            {path && (
              <Text span c="dimmed" inherit>
                {path}
              </Text>
            )}
            {task.name}
          </Text>
          <Progress
            value={percent}
            size="xs"
            aria-label={`Progress of ${task.name}`}
            color={task.state === 'failed' ? 'red' : task.state === 'done' ? 'teal' : undefined}
          />
          <Text size="xs" c={task.state === 'failed' ? 'red' : 'dimmed'}>
            {task.state === 'failed' && task.error
              ? task.error
              : task.state === 'done' && task.reused
                ? 'Already in the workspace — nothing sent'
                : STATUS[task.state]}
            {task.state === 'uploading' ? ` · ${percent}% of ${formatBytes(task.size)}` : ''}
            {task.state === 'checking' && task.size > 0 ? ` ${Math.floor((task.checked / task.size) * 100)}% of ${formatBytes(task.size)} read` : ''}
          </Text>
          {fileError && (
            <Text size="xs" c="red">
              {fileError}
            </Text>
          )}
        </Stack>
        <Group gap={2} wrap="nowrap">
          {task.state === 'needs-file' && (
            <FileButton
              onChange={(file) => {
                if (file) setFileError(manager.provideFile(task.key, file));
              }}
            >
              {(props) => (
                <Button {...props} size="compact-xs" variant="light" aria-label={`Choose “${task.name}” to resume`}>
                  Choose file
                </Button>
              )}
            </FileButton>
          )}
          {live && (
            <ActionIcon variant="subtle" color="gray" aria-label={`Pause upload of ${task.name}`} onClick={() => manager.pause(task.key)}>
              <IconPlayerPause size={16} />
            </ActionIcon>
          )}
          {task.state === 'paused' && (
            <ActionIcon variant="subtle" color="gray" aria-label={`Resume upload of ${task.name}`} onClick={() => manager.resume(task.key)}>
              <IconPlayerPlay size={16} />
            </ActionIcon>
          )}
          {task.state === 'failed' && (
            <ActionIcon variant="subtle" color="gray" aria-label={`Retry upload of ${task.name}`} onClick={() => manager.resume(task.key)}>
              <IconRefresh size={16} />
            </ActionIcon>
          )}
          {!isEnded(task.state) && (
            <ActionIcon variant="subtle" color="gray" aria-label={`Cancel upload of ${task.name}`} onClick={() => void manager.cancel(task.key)}>
              <IconX size={16} />
            </ActionIcon>
          )}
        </Group>
      </Group>
    </li>
  );
});

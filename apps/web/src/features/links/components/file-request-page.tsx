import { Button, FileButton, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconCircleCheck, IconFolderUp, IconInbox, IconUpload } from '@tabler/icons-react';
import type { TPublicLink } from '@cabinet/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState, useSyncExternalStore, type DragEvent } from 'react';
import { formatBytes, formatDate, formatDateTime } from '../../../lib/format.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { readStoredJson, writeStoredJson } from '../../../lib/stored.ts';
import { UploadRow } from '../../uploads/components/uploads-panel.tsx';
import { filesFromDrop, filesFromInput, type PickedFile } from '../../uploads/uploader/collect-files.ts';
import { FolderInput } from '../../uploads/components/folder-input.tsx';
import { UploadManager } from '../../uploads/uploader/upload-manager.ts';
import { isEnded } from '../../uploads/uploader/upload-queue.ts';
import { UploadsContext } from '../../uploads/uploader/uploads-context.ts';
import { linkTransport } from '../api/link-uploads.ts';

/**
 * What this browser keeps of its uploads through one link: the open ones (to resume after a
 * reload) and the ones sent. A visitor has no account, so nothing on the server lists them — and
 * nothing there lists anyone else's.
 */
interface Kept {
  open: { id: string; name: string }[];
  sent: { id: string; name: string; size: number; at: string }[];
}
const keyOf = (token: string) => `cabinet:file-request:${token}`;
function readKept(token: string): Kept {
  const kept = readStoredJson<Partial<Kept> | null>(keyOf(token));
  return { open: Array.isArray(kept?.open) ? kept.open : [], sent: Array.isArray(kept?.sent) ? kept.sent : [] };
}

/**
 * `/s/:token` for a file request (ADR 0035): the folder's name and who asks, a drop zone and
 * "Choose files" and "Choose folder" buttons, each file's progress (pause, cancel, retry), and what
 * this browser sent. The uploads are the app's own uploader, through the link's routes; a folder
 * arrives with its subfolders, made through the link inside the request's folder.
 */
export function FileRequestPage({ token, link }: { token: string; link: TPublicLink }) {
  const client = useQueryClient();
  const folderId = link.item.id;
  const [manager] = useState(
    () =>
      new UploadManager(
        () => {},
        linkTransport(token, { maxFileSize: link.maxFileSize, onLinkLost: () => void client.invalidateQueries({ queryKey: queryKeys.publicLink(token) }) }),
      ),
  );
  const uploads = useMemo(() => ({ manager, arrival: Promise.resolve(manager) }), [manager]);
  const tasks = useSyncExternalStore(manager.subscribe, manager.getSnapshot);
  const [kept, setKept] = useState(() => readKept(token));
  const [dragging, setDragging] = useState(false);
  const folderInput = useRef<HTMLInputElement | null>(null);

  // Uploads left open by an earlier visit come back, waiting for their files.
  useEffect(() => {
    const open = readKept(token).open;
    if (open.length) manager.reopen('', folderId, open).catch(() => {});
  }, [manager, token, folderId]);

  // Keeps the open uploads and the sent files of this browser as the uploads change.
  useEffect(
    () =>
      manager.subscribe(() => {
        const now = manager.getSnapshot();
        setKept((before) => {
          const sent = [...before.sent];
          for (const t of now)
            if (t.state === 'done' && t.uploadId && !sent.some((s) => s.id === t.uploadId))
              sent.push({ id: t.uploadId, name: t.name, size: t.size, at: new Date().toISOString() });
          const open = now.filter((t) => t.uploadId && !isEnded(t.state)).map((t) => ({ id: t.uploadId!, name: t.name }));
          const next = { open, sent };
          // With storage refused (private mode, full), the list of what was sent lasts as long as the page.
          writeStoredJson(keyOf(token), next);
          return next;
        });
      }),
    [manager, token],
  );

  // Files, and folders with their subfolders (each file with the folders between the pick and it).
  const add = (picked: PickedFile[]) => {
    if (picked.length) manager.add('', folderId, picked);
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    filesFromDrop(e.dataTransfer).then(add, () => {});
  };
  const active = tasks.filter((t) => !isEnded(t.state));
  // What the request still takes in all, when its maker set a cap: less what this page has sent since it was opened.
  const sentHere = tasks.filter((t) => t.state === 'done').reduce((sum, t) => sum + t.size, 0);
  const remaining = link.remainingBytes === undefined ? undefined : Math.max(0, link.remainingBytes - sentHere);

  return (
    <UploadsContext.Provider value={uploads}>
      <Group gap="sm" wrap="nowrap" miw={0}>
        <IconInbox aria-hidden size={28} style={{ flex: 'none' }} />
        <Title order={1} fz="h3" style={{ overflowWrap: 'anywhere' }}>
          {link.item.name}
        </Title>
      </Group>
      <Text>
        {link.requestedBy ? `${link.requestedBy} asks you for files.` : 'You are asked for files.'} What you upload goes into this folder; you cannot see what
        is in it, and no one else who has this link sees what you send.
      </Text>
      <Text size="sm" c="dimmed">
        {link.maxFileSize ? `Files up to ${formatBytes(link.maxFileSize)} each` : 'Any number of files'}
        {link.expiresAt ? ` · this link expires ${formatDate(link.expiresAt)}` : ''}
      </Text>
      {remaining !== undefined && <Text size="sm">{`${formatBytes(remaining)} left: this request takes at most that much more, all files together.`}</Text>}
      <Paper
        component="section"
        aria-label="Drop files here"
        withBorder
        radius="md"
        p="xl"
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        style={{
          borderStyle: 'dashed',
          borderWidth: 2,
          borderColor: dragging ? 'var(--mantine-primary-color-filled)' : undefined,
          background: dragging ? 'var(--mantine-primary-color-light)' : undefined,
        }}
      >
        <Stack align="center" gap="xs">
          <IconUpload aria-hidden size={32} />
          <Text ta="center">Drag files or folders here, or</Text>
          <Group justify="center" gap="sm">
            <FileButton multiple onChange={(files) => add(filesFromInput(files))}>
              {(props) => (
                <Button {...props} leftSection={<IconUpload aria-hidden size={18} />}>
                  Choose files
                </Button>
              )}
            </FileButton>
            <Button variant="default" leftSection={<IconFolderUp aria-hidden size={18} />} onClick={() => folderInput.current?.click()}>
              Choose folder
            </Button>
          </Group>
          <FolderInput inputRef={folderInput} onFiles={add} />
        </Stack>
      </Paper>
      {active.length > 0 && (
        <Stack gap={10} component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Uploads in progress">
          {active.map((task) => (
            <UploadRow key={task.key} task={task} />
          ))}
        </Stack>
      )}
      {kept.sent.length > 0 && (
        <section aria-labelledby="sent-files">
          <Title order={2} fz="h5" id="sent-files" mb="xs">
            Sent from this browser
          </Title>
          <Stack gap={6} component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Files you sent">
            {kept.sent.map((s) => (
              <Group component="li" key={s.id} gap="xs" wrap="nowrap">
                <IconCircleCheck aria-hidden size={18} color="var(--mantine-color-teal-filled)" style={{ flex: 'none' }} />
                <Text size="sm" style={{ overflowWrap: 'anywhere', flex: 1 }}>
                  {s.name}
                </Text>
                <Text size="xs" c="dimmed" style={{ flex: 'none' }}>
                  {formatBytes(s.size)} · {formatDateTime(s.at)}
                </Text>
              </Group>
            ))}
          </Stack>
        </section>
      )}
    </UploadsContext.Provider>
  );
}

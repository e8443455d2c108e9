import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Button,
  Checkbox,
  CopyButton,
  Drawer,
  FileButton,
  Group,
  Menu,
  Modal,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconArrowsDiff, IconCheck, IconCopy, IconDots, IconPin, IconRestore, IconTrash, IconUpload } from '@tabler/icons-react';
import { filesApi, urlOf, type TFileVersion, type TItem } from '@cabinet/contracts';
import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { ApiError } from '../../../lib/api-client.ts';
import { formatBytes, formatDateTime } from '../../../lib/format.ts';
import { pageRoutes } from '../../../lib/page-routes.ts';
import { ConfirmDialog, LockedConfirm } from '../../../components/ui/confirm-dialog.tsx';
import { useReturnFocus } from '../../../components/ui/use-return-focus.ts';
import { useMe } from '../../auth/api/use-me.ts';
import { useUploader } from '../../uploads/hooks/use-uploader.ts';
import { useCurrentItem } from '../api/use-items.ts';
import { useVersionMutations, useVersions } from '../api/use-versions.ts';
import { isComparableText } from '../lib/compare-text.ts';
import { CompareVersionsDialog, describeVersion } from './compare-versions-dialog.tsx';

type Asking =
  | { kind: 'restore' | 'delete' | 'name'; version: TFileVersion }
  | { kind: 'compare'; versions: [TFileVersion, TFileVersion] }
  | { kind: 'replace'; file: File };

const failed = (title: string) => (error: Error) => notifications.show({ color: 'red', title, message: error.message });

/** Where a version opens in the file viewer. */
export const versionPage = (ws: string, item: TItem, version: TFileVersion) => `${pageRoutes.workspace(ws)}/file/${item.id}?version=${version.id}`;

/** Asks for a version's name; a named version is kept for ever. */
function NameVersionDialog({ item, version, onClose }: { item: TItem; version: TFileVersion; onClose: () => void }) {
  useReturnFocus();
  const { name } = useVersionMutations(item);
  const [value, setValue] = useState(version.name ?? '');
  const [error, setError] = useState<string | null>(null);
  const save = (next: string | null) =>
    name.mutate(
      { versionId: version.id, name: next },
      { onSuccess: onClose, onError: (e) => setError(e instanceof ApiError ? e.message : 'That did not work. Try again.') },
    );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = value.trim();
    if (!trimmed) return setError('Give the version a name, or clear its name.');
    if (trimmed.length > 200) return setError('A version name is at most 200 characters.');
    save(trimmed);
  };
  return (
    <Modal opened onClose={onClose} title={`Name version ${version.number} of ${item.name}`} centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput
            label="Version name"
            description="A named version is kept for ever: retention never removes it."
            value={value}
            maxLength={200}
            onChange={(e) => {
              setValue(e.currentTarget.value);
              setError(null);
            }}
            error={error}
            data-autofocus
          />
          <Group justify="flex-end">
            {version.name && (
              <Button variant="subtle" color="red" onClick={() => save(null)} loading={name.isPending && name.variables?.name === null}>
                Clear name
              </Button>
            )}
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={name.isPending && name.variables?.name !== null}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function VersionRow(props: {
  item: TItem;
  version: TFileVersion;
  ws: string;
  comparable: boolean;
  selected: boolean;
  onSelect: (on: boolean) => void;
  onAsk: (kind: 'restore' | 'delete' | 'name') => void;
  /** The version is opened in the viewer: the panel closes, so the version is what is seen. */
  onOpen: () => void;
}) {
  const { item, version: v, ws } = props;
  const canRestore = item.abilities.restoreVersion && !v.current;
  const canDelete = item.abilities.deleteVersion && !v.current;
  return (
    <Stack
      gap={4}
      py="xs"
      component="li"
      aria-label={`Version ${v.number}${v.current ? ', current' : ''}`}
      style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
      data-testid="version-row"
    >
      <Group gap="xs" wrap="nowrap" align="flex-start">
        {props.comparable && (
          <Checkbox
            mt={3}
            aria-label={`Select version ${v.number} to compare`}
            checked={props.selected}
            onChange={(e) => props.onSelect(e.currentTarget.checked)}
          />
        )}
        <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
          <Group gap="xs">
            <Text size="sm" fw={600}>
              Version {v.number}
            </Text>
            {v.current && (
              <Badge size="xs" variant="filled">
                Current
              </Badge>
            )}
            {v.name && (
              <Badge size="xs" variant="light" leftSection={<IconPin aria-hidden size={10} />} style={{ textTransform: 'none', maxWidth: '100%' }}>
                {v.name}
              </Badge>
            )}
          </Group>
          <Text size="xs" c="dimmed">
            {formatDateTime(v.createdAt)} · {v.authorName ? `by ${v.authorName}` : 'by a former member'} · {formatBytes(v.size)}
          </Text>
          <Group gap={4} wrap="nowrap">
            <Tooltip label={v.sha256} multiline w={280} style={{ wordBreak: 'break-all' }}>
              <Text size="xs" c="dimmed" ff="monospace" title={`SHA-256 ${v.sha256}`} tabIndex={0} aria-label={`SHA-256 ${v.sha256}`}>
                SHA-256 {v.sha256.slice(0, 12)}…
              </Text>
            </Tooltip>
            <CopyButton value={v.sha256}>
              {({ copied, copy }) => (
                <ActionIcon variant="subtle" size="sm" onClick={copy} aria-label={copied ? 'SHA-256 copied' : `Copy the SHA-256 of version ${v.number}`}>
                  {copied ? <IconCheck aria-hidden size={14} /> : <IconCopy aria-hidden size={14} />}
                </ActionIcon>
              )}
            </CopyButton>
          </Group>
        </Stack>
      </Group>
      <Group gap="sm" pl={props.comparable ? 30 : 0}>
        <Anchor component={Link} to={versionPage(ws, item, v)} onClick={props.onOpen} size="sm" aria-label={`Open version ${v.number}`}>
          Open
        </Anchor>
        <Anchor href={urlOf(filesApi.content, { id: item.id }, { version: v.id, download: '1' })} size="sm" aria-label={`Download version ${v.number}`}>
          Download
        </Anchor>
        {(item.abilities.edit || canRestore || canDelete) && (
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <ActionIcon variant="subtle" size="sm" aria-label={`More actions for version ${v.number}`}>
                <IconDots aria-hidden size={16} />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              {item.abilities.edit && (
                <Menu.Item leftSection={<IconPin aria-hidden size={14} />} onClick={() => props.onAsk('name')}>
                  {v.name ? 'Rename or clear name…' : 'Name this version…'}
                </Menu.Item>
              )}
              {canRestore && (
                <Menu.Item leftSection={<IconRestore aria-hidden size={14} />} onClick={() => props.onAsk('restore')}>
                  Restore this version…
                </Menu.Item>
              )}
              {canDelete && (
                <Menu.Item color="red" leftSection={<IconTrash aria-hidden size={14} />} onClick={() => props.onAsk('delete')}>
                  Delete this version…
                </Menu.Item>
              )}
            </Menu.Dropdown>
          </Menu>
        )}
      </Group>
    </Stack>
  );
}

/**
 * A file's versions, newest first: who made each, when, its size and SHA-256 and name; open or
 * download any; compare two of a text file; name one (kept for ever); and, for managers, restore
 * an older one as the current version or delete one.
 */
export function VersionsDrawer({ item, onClose }: { item: TItem; onClose: () => void }) {
  useReturnFocus();
  const uploader = useUploader();
  const ws = useParams().ws ?? item.workspaceId;
  const versions = useVersions(item);
  const { restore, remove } = useVersionMutations(item);
  const [selected, setSelected] = useState<string[]>([]);
  const [asking, setAsking] = useState<Asking>();
  const me = useMe();
  // A WebDAV client's lock, as the item is now: a new version over it is asked about first.
  const { lock } = useCurrentItem(item);
  const addVersion = (file: File) => (lock ? setAsking({ kind: 'replace', file }) : uploader.addVersion(item, file));
  const list = versions.data ?? [];
  const current = list.find((v) => v.current);
  const comparable = list.length > 1 && isComparableText(item);
  const chosen = list.filter((v) => selected.includes(v.id));
  const close = () => setAsking(undefined);
  return (
    <Drawer
      opened
      onClose={onClose}
      // Escape in a dialog opened from the panel closes that dialog alone.
      closeOnEscape={!asking}
      position="right"
      title={
        <Text fw={600} truncate="end">
          Versions of {item.name}
        </Text>
      }
    >
      <Stack>
        {item.abilities.edit && (
          <FileButton onChange={(file) => file && addVersion(file)}>
            {(props) => (
              <Button {...props} variant="default" leftSection={<IconUpload aria-hidden size={16} />}>
                Upload a new version
              </Button>
            )}
          </FileButton>
        )}
        {comparable && (
          <Group justify="space-between" wrap="nowrap">
            <Text size="xs" c="dimmed">
              {chosen.length === 2 ? 'Two versions chosen.' : 'Choose two versions to compare.'}
            </Text>
            <Button
              size="xs"
              variant="default"
              leftSection={<IconArrowsDiff aria-hidden size={14} />}
              disabled={chosen.length !== 2}
              onClick={() => setAsking({ kind: 'compare', versions: [chosen[0]!, chosen[1]!] })}
            >
              Compare
            </Button>
          </Group>
        )}
        {versions.isPending ? (
          <Skeleton h={80} aria-label="Loading the versions" />
        ) : versions.isError ? (
          <Alert color="red" title="The versions could not be loaded">
            {versions.error.message}
          </Alert>
        ) : list.length === 0 ? (
          <Text size="sm" c="dimmed">
            This file has no versions yet.
          </Text>
        ) : (
          <Stack component="ul" gap={0} aria-label="Versions" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {list.map((v) => (
              <VersionRow
                key={v.id}
                item={item}
                version={v}
                ws={ws}
                comparable={comparable}
                selected={selected.includes(v.id)}
                onSelect={(on) => setSelected((s) => (on ? [...s.filter((id) => id !== v.id), v.id].slice(-2) : s.filter((id) => id !== v.id)))}
                onAsk={(kind) => setAsking({ kind, version: v })}
                onOpen={onClose}
              />
            ))}
          </Stack>
        )}
      </Stack>
      {asking?.kind === 'compare' && <CompareVersionsDialog item={item} versions={asking.versions} onClose={close} />}
      {asking?.kind === 'replace' && lock && (
        <LockedConfirm
          name={item.name}
          lock={lock}
          meId={me.data?.user.id}
          confirmLabel="Replace anyway"
          onConfirm={() => {
            uploader.addVersion(item, asking.file);
            close();
          }}
          onClose={close}
        />
      )}
      {asking?.kind === 'name' && <NameVersionDialog item={item} version={asking.version} onClose={close} />}
      {asking?.kind === 'restore' && (
        <ConfirmDialog
          title="Restore this version?"
          confirmLabel="Restore"
          color="blue"
          pending={restore.isPending}
          onClose={close}
          onConfirm={() =>
            restore.mutate(asking.version.id, {
              onSuccess: (result) => {
                close();
                notifications.show({ color: 'green', message: `Version ${asking.version.number} is back as version ${result.version.number}.` });
              },
              onError: failed('Not restored'),
            })
          }
        >
          <Text size="sm">
            {describeVersion(asking.version).replace(/^Version (\d+)/, `Version $1 of ${item.name}`)}, becomes the current version
            {current ? `; the current version ${current.number} stays in the list.` : '.'} Nothing is copied or lost.
          </Text>
        </ConfirmDialog>
      )}
      {asking?.kind === 'delete' && (
        <ConfirmDialog
          title="Delete this version?"
          confirmLabel="Delete version"
          pending={remove.isPending}
          onClose={close}
          onConfirm={() =>
            remove.mutate(asking.version.id, {
              onSuccess: () => {
                close();
                setSelected((s) => s.filter((id) => id !== asking.version.id));
              },
              onError: failed('Not deleted'),
            })
          }
        >
          <Text size="sm">
            {describeVersion(asking.version).replace(/^Version (\d+)/, `Version $1 of ${item.name}`)}, is deleted for good; its{' '}
            {formatBytes(asking.version.size)} stop counting against the workspace’s storage. The other versions stay.
          </Text>
        </ConfirmDialog>
      )}
    </Drawer>
  );
}

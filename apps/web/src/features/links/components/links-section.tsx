import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Checkbox,
  Group,
  PasswordInput,
  Radio,
  Skeleton,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconCheck, IconCopy, IconLink, IconTrash } from '@tabler/icons-react';
import { LIMITS, type TItem, type TLink, type TLinkKind, type TLinkPolicy, type TWorkspace } from '@cabinet/contracts';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { EndDayInput, endOfDay, inDays } from '../../../components/ui/end-day-input.tsx';
import { formatBytes, formatDate } from '../../../lib/format.ts';
import { useMutateOnce } from '../../../lib/use-mutate-once.ts';
import { useLinkMutations, useLinkPolicy, useLinks } from '../api/use-links.ts';
import { LinkCapInput } from './link-cap-input.tsx';

/** The last day a link may run to under the policy (the server checks to the minute, so the day before the limit). */
const lastDay = (policy: TLinkPolicy | undefined) => (policy?.maxLifetimeDays ? inDays(policy.maxLifetimeDays - 1) : undefined);

export const STATE_LABEL: Record<TLink['state'], string> = { active: 'Active', expired: 'Expired', revoked: 'Revoked' };

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
/** How a link was used: opened and downloaded (a view link), or opened and uploaded to (a file request). */
export const usageOf = (l: Pick<TLink, 'kind' | 'views' | 'downloads' | 'uploads'>) =>
  `${plural(l.views, 'view', 'views')} · ${l.kind === 'file_request' ? plural(l.uploads, 'upload', 'uploads') : plural(l.downloads, 'download', 'downloads')}`;

/** Copies a link's address, saying so for two seconds; or shows it to copy by hand. Without an address (it could not be read back), says so. */
export function CopyLinkButton({
  url,
  label,
  tooltip = 'Copy link',
  onFailed,
}: {
  url: string | null;
  label: string;
  tooltip?: string;
  onFailed: (message: string) => void;
}) {
  const [copied, setCopied] = useState(false);
  if (url === null) {
    return (
      <Text size="xs" c="dimmed" maw={180}>
        Link address unavailable — make a new link
      </Text>
    );
  }
  return (
    <Tooltip label={copied ? 'Copied' : tooltip}>
      <ActionIcon
        variant="subtle"
        aria-label={copied ? `${label} copied` : label}
        onClick={() =>
          void navigator.clipboard.writeText(url).then(
            () => {
              setCopied(true);
              setTimeout(() => setCopied(false), 2000);
            },
            () => onFailed(`The link could not be copied here. Copy it by hand: ${url}`),
          )
        }
      >
        {copied ? <IconCheck aria-hidden size={16} /> : <IconCopy aria-hidden size={16} />}
      </ActionIcon>
    </Tooltip>
  );
}

/**
 * The Share dialog's public links: make one (optional password and end, downloads allowed or
 * not) within the workspace's policy — on a folder, a view link or a file request (ADR 0035) —
 * copy its address, see how often it was opened and downloaded or uploaded to, change it, or
 * revoke it.
 */
export function LinksSection({ item, workspace }: { item: TItem; workspace: TWorkspace }) {
  const links = useLinks(item.id);
  const policy = useLinkPolicy(workspace.id);
  const m = useLinkMutations(workspace.id, item.id);
  const createOnce = useMutateOnce(m.create);
  const [password, setPassword] = useState('');
  const [ends, setEnds] = useState('');
  const [downloads, setDownloads] = useState(true);
  const [kind, setKind] = useState<TLinkKind>('view');
  const [maxBytes, setMaxBytes] = useState<number | null>(null);
  const request = item.kind === 'folder' && kind === 'file_request';
  const [error, setError] = useState<string>();
  const [revoking, setRevoking] = useState<TLink>();
  const failed = (e: Error) => setError(e.message);
  const p = policy.data;
  const mustEnd = p?.maxLifetimeDays != null;

  const create = () => {
    setError(undefined);
    if (p?.passwordRequired && !password) return setError('Links in this workspace need a password.');
    if (password && password.length < LIMITS.linkPasswordMin) return setError(`A link's password needs at least ${LIMITS.linkPasswordMin} characters.`);
    createOnce(
      {
        kind: request ? 'file_request' : 'view',
        ...(password ? { password } : {}),
        ...(ends ? { expiresAt: endOfDay(ends) } : {}),
        ...(request ? (maxBytes ? { maxBytes } : {}) : { downloadAllowed: downloads }),
      },
      {
        onSuccess: () => {
          setPassword('');
          setEnds('');
        },
        onError: failed,
      },
    );
  };

  return (
    <section aria-labelledby="public-links">
      <Title order={3} fz="h5" id="public-links" mb="xs">
        Public links
      </Title>
      {error && (
        <Alert color="red" mb="sm" title="The link did not change" withCloseButton closeButtonLabel="Dismiss" onClose={() => setError(undefined)}>
          {error}
        </Alert>
      )}
      {p && !p.linksAllowed ? (
        <Text size="sm" c="dimmed">
          This workspace does not allow public links. Its owner and admins can change that in the workspace settings.
        </Text>
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            create();
          }}
        >
          <Stack gap="xs">
            {item.kind === 'folder' && (
              <Radio.Group label="Kind of link" value={kind} onChange={(v) => setKind(v as TLinkKind)}>
                <Group gap="md" mt={4}>
                  <Radio value="view" label="View link" />
                  <Radio value="file_request" label="File request" />
                </Group>
              </Radio.Group>
            )}
            <Text size="sm" c="dimmed">
              {request
                ? `Anyone with the link can upload files into “${item.name}” without an account. They see nothing in it, not even what others sent.`
                : `Anyone with the link can see “${item.name}”${item.kind === 'folder' ? ' and everything in it' : ''} without an account.`}
            </Text>
            <Group grow align="flex-start" gap="sm" wrap="wrap">
              <PasswordInput
                label={p?.passwordRequired ? 'Link password' : 'Link password (optional)'}
                description={`At least ${LIMITS.linkPasswordMin} characters`}
                value={password}
                onChange={(e) => setPassword(e.currentTarget.value)}
                autoComplete="new-password"
                required={p?.passwordRequired}
                miw={160}
              />
              <TextInput
                label={mustEnd ? 'Link expires' : 'Link expires (optional)'}
                description={mustEnd ? `At most ${p.maxLifetimeDays} days from now` : 'Never, if left empty'}
                type="date"
                min={inDays(1)}
                max={lastDay(p)}
                value={ends}
                onChange={(e) => setEnds(e.currentTarget.value)}
                miw={150}
              />
            </Group>
            {request && (
              <LinkCapInput
                label="Maximum total size (optional)"
                description="All files sent together; no limit if left empty"
                bytes={maxBytes}
                onChange={setMaxBytes}
              />
            )}
            <Group justify="space-between" wrap="wrap" gap="sm">
              {request ? <span /> : <Checkbox label="Allow downloads" checked={downloads} onChange={(e) => setDownloads(e.currentTarget.checked)} />}
              <Button type="submit" variant="default" loading={m.create.isPending} leftSection={<IconLink aria-hidden size={18} />}>
                Create link
              </Button>
            </Group>
          </Stack>
        </form>
      )}
      {links.isPending ? (
        <Skeleton h={48} mt="sm" />
      ) : links.error ? (
        <Text size="sm" c="red" mt="sm">
          {links.error.message}
        </Text>
      ) : links.items!.length === 0 ? (
        <Text size="sm" c="dimmed" mt="sm">
          No public links yet.
        </Text>
      ) : (
        <Stack component="ul" gap="sm" p={0} mt="sm" mb={0} style={{ listStyle: 'none' }} aria-label="Links to this item">
          {links.items!.map((link) => (
            <LinkRow
              key={link.id}
              link={link}
              policy={p}
              onRevoke={() => setRevoking(link)}
              onFailed={setError}
              update={(body) => m.update.mutate({ linkId: link.id, body }, { onError: failed })}
            />
          ))}
        </Stack>
      )}
      {links.hasNextPage && (
        <Group justify="center" mt="sm">
          <Button variant="default" size="xs" loading={links.isFetchingNextPage} onClick={() => void links.fetchNextPage()}>
            Show more links
          </Button>
        </Group>
      )}
      {revoking && (
        <ConfirmDialog
          title="Revoke this link?"
          confirmLabel="Revoke link"
          pending={m.revoke.isPending}
          onClose={() => setRevoking(undefined)}
          onConfirm={() =>
            m.revoke.mutate(revoking.id, {
              onSuccess: () => setRevoking(undefined),
              onError: (e) => {
                setRevoking(undefined);
                failed(e);
              },
            })
          }
        >
          <Text>Anyone opening it will be told the link has ended. This cannot be undone; you can make a new link.</Text>
        </ConfirmDialog>
      )}
    </section>
  );
}

/** When a link ended: the day it was revoked, or the day it expired; null while it is live. */
const endedAt = (l: Pick<TLink, 'state' | 'revokedAt' | 'expiresAt'>) => (l.state === 'revoked' ? l.revokedAt : l.state === 'expired' ? l.expiresAt : null);

function LinkRow({
  link,
  policy,
  onRevoke,
  onFailed,
  update,
}: {
  link: TLink;
  policy: TLinkPolicy | undefined;
  onRevoke: () => void;
  onFailed: (m: string) => void;
  update: (body: { password?: string | null; expiresAt?: string | null; downloadAllowed?: boolean; maxBytes?: number | null }) => void;
}) {
  const [newPassword, setNewPassword] = useState<string>();
  const [cap, setCap] = useState(link.maxBytes);
  // Named by its number on the item, which neither revoking a link nor loading more changes.
  const name = `Link ${link.number}`;
  const live = link.state === 'active';
  const ended = endedAt(link);
  return (
    <li aria-label={name}>
      <Stack gap={4}>
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Stack gap={0} miw={0} style={{ flex: 1 }}>
            <Group gap="xs" wrap="wrap">
              <Text size="sm" fw={500}>
                {name}
              </Text>
              <Badge size="sm" variant="light" color={live ? undefined : 'gray'}>
                {STATE_LABEL[link.state]}
              </Badge>
              {link.kind === 'file_request' && (
                <Badge size="sm" variant="outline" color="grape">
                  File request
                </Badge>
              )}
              {link.hasPassword && (
                <Badge size="sm" variant="outline">
                  Password
                </Badge>
              )}
            </Group>
            <Text size="xs" c="dimmed">
              {usageOf(link)}
              {link.maxBytes !== null ? ` · ${formatBytes(link.uploadedBytes)} of ${formatBytes(link.maxBytes)} sent` : ''}
              {live && link.expiresAt ? ` · expires ${formatDate(link.expiresAt)}` : ended ? ` · ended ${formatDate(ended)}` : ''}
            </Text>
          </Stack>
          {live && (
            <ActionIcon variant="subtle" color="red" aria-label={`Revoke ${name}`} onClick={onRevoke}>
              <IconTrash aria-hidden size={16} />
            </ActionIcon>
          )}
        </Group>
        {live && <PublicAddress url={link.url} name={name} onFailed={onFailed} />}
        {live && (
          <Group gap="sm" wrap="wrap" align="flex-end">
            <EndDayInput
              // A new end from the server starts the field afresh.
              key={link.expiresAt ?? 'none'}
              label={`${name} expires`}
              value={link.expiresAt}
              max={lastDay(policy)}
              required={policy?.maxLifetimeDays != null}
              onCommit={(expiresAt) => update({ expiresAt })}
            />
            {link.kind === 'file_request' && (
              // Saved when the field is left or Enter pressed; a new cap from the server starts it afresh.
              <div
                key={link.maxBytes ?? 'none'}
                onBlur={(e) => !e.currentTarget.contains(e.relatedTarget) && cap !== link.maxBytes && update({ maxBytes: cap })}
                onKeyDown={(e) => e.key === 'Enter' && cap !== link.maxBytes && update({ maxBytes: cap })}
              >
                <LinkCapInput label={`${name} maximum total size`} bytes={link.maxBytes} onChange={setCap} />
              </div>
            )}
            {link.kind === 'view' && (
              <Switch
                size="sm"
                label="Downloads"
                aria-label={`${name} allows downloads`}
                checked={link.downloadAllowed}
                onChange={(e) => update({ downloadAllowed: e.currentTarget.checked })}
              />
            )}
            {newPassword === undefined ? (
              <>
                <Button
                  size="compact-xs"
                  variant="subtle"
                  onClick={() => setNewPassword('')}
                  aria-label={`${link.hasPassword ? 'Change password of' : 'Set a password on'} ${name}`}
                >
                  {link.hasPassword ? 'Change password' : 'Set password'}
                </Button>
                {link.hasPassword && !policy?.passwordRequired && (
                  <Button
                    size="compact-xs"
                    variant="subtle"
                    color="red"
                    onClick={() => update({ password: null })}
                    aria-label={`Remove the password of ${name}`}
                  >
                    Remove password
                  </Button>
                )}
              </>
            ) : (
              <form
                onSubmit={(e) => {
                  e.preventDefault();
                  if (newPassword.length < LIMITS.linkPasswordMin) return onFailed(`A link's password needs at least ${LIMITS.linkPasswordMin} characters.`);
                  update({ password: newPassword });
                  setNewPassword(undefined);
                }}
              >
                <Group gap={4} wrap="nowrap">
                  <PasswordInput
                    size="xs"
                    w={160}
                    aria-label={`New password of ${name}`}
                    value={newPassword}
                    onChange={(e) => setNewPassword(e.currentTarget.value)}
                    autoComplete="new-password"
                    autoFocus
                  />
                  <Button size="compact-xs" type="submit">
                    Save
                  </Button>
                  <Button size="compact-xs" variant="subtle" onClick={() => setNewPassword(undefined)}>
                    Cancel
                  </Button>
                </Group>
              </form>
            )}
          </Group>
        )}
      </Stack>
    </li>
  );
}

/**
 * A live link's public address, to read, select or copy: anyone holding it opens the item without
 * an account, unlike the link for members at the foot of the Share dialog.
 */
function PublicAddress({ url, name, onFailed }: { url: string | null; name: string; onFailed: (m: string) => void }) {
  if (url === null) return <CopyLinkButton url={null} label={`Copy public link (${name})`} onFailed={onFailed} />;
  return (
    <TextInput
      size="xs"
      readOnly
      value={url}
      aria-label={`Address of ${name}`}
      onFocus={(e) => e.currentTarget.select()}
      rightSection={<CopyLinkButton url={url} label={`Copy public link (${name})`} tooltip="Copy public link" onFailed={onFailed} />}
      rightSectionPointerEvents="all"
      styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
    />
  );
}

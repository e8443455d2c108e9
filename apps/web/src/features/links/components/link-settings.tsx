import { ActionIcon, Alert, Anchor, Badge, Button, Checkbox, Group, Loader, NumberInput, Paper, Stack, Switch, Text, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertCircle, IconLink, IconTrash } from '@tabler/icons-react';
import { filesApi, urlOf, type TLinkPolicy, type TWorkspace, type TWorkspaceLink } from '@cabinet/contracts';
import { useState } from 'react';
import { Link } from 'react-router';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { formatDate } from '../../../lib/format.ts';
import { useLinkPolicy, useRevokeWorkspaceLink, useUpdateLinkPolicy, useWorkspaceLinks } from '../api/use-links.ts';
import { CopyLinkButton, usageOf } from './links-section.tsx';
import { pageRoutes } from '../../../lib/page-routes.ts';

/** The workspace's link policy: whether links may be made, whether they need a password, how long they may live. */
export function LinkPolicySection({ workspace }: { workspace: TWorkspace }) {
  const policy = useLinkPolicy(workspace.id);
  if (policy.error) {
    return (
      <Alert color="red" icon={<IconAlertCircle aria-hidden />} role="alert" title="The link policy could not be shown">
        {policy.error.message}
      </Alert>
    );
  }
  if (!policy.data) return <Loader aria-label="Loading the link policy" />;
  return <PolicyForm workspace={workspace} saved={policy.data} />;
}

function PolicyForm({ workspace, saved }: { workspace: TWorkspace; saved: TLinkPolicy }) {
  const save = useUpdateLinkPolicy(workspace.id);
  const [draft, setDraft] = useState<TLinkPolicy>(saved);
  const limited = draft.maxLifetimeDays !== null;
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate(draft, { onSuccess: () => notifications.show({ color: 'green', message: 'Link policy saved' }) });
      }}
    >
      <Stack gap="sm">
        {save.error && (
          <Alert color="red" role="alert" title="The policy was not saved">
            {save.error.message}
          </Alert>
        )}
        <Switch
          label="Allow public links"
          description="Managers of an item can make links that open it without an account."
          checked={draft.linksAllowed}
          onChange={(e) => setDraft({ ...draft, linksAllowed: e.currentTarget.checked })}
        />
        <Switch
          label="Require a password on new links"
          checked={draft.passwordRequired}
          disabled={!draft.linksAllowed}
          onChange={(e) => setDraft({ ...draft, passwordRequired: e.currentTarget.checked })}
        />
        <Checkbox
          label="Limit how long a link lives"
          checked={limited}
          disabled={!draft.linksAllowed}
          onChange={(e) => setDraft({ ...draft, maxLifetimeDays: e.currentTarget.checked ? 30 : null })}
        />
        {limited && (
          <NumberInput
            label="Maximum lifetime (days)"
            min={1}
            max={3650}
            w={220}
            value={draft.maxLifetimeDays ?? 30}
            disabled={!draft.linksAllowed}
            onChange={(v) => setDraft({ ...draft, maxLifetimeDays: typeof v === 'number' ? Math.max(1, Math.min(3650, Math.round(v))) : 1 })}
          />
        )}
        <Text size="xs" c="dimmed">
          The policy holds for links made from now on. Links already made keep working until they expire or are revoked below.
        </Text>
        <Group>
          <Button type="submit" loading={save.isPending}>
            Save link policy
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Every live link of the workspace: what it opens, who made it, until when, how often used; each can be revoked. */
export function WorkspaceLinksSection({ workspace }: { workspace: TWorkspace }) {
  const links = useWorkspaceLinks(workspace.id);
  const revoke = useRevokeWorkspaceLink(workspace.id);
  const [revoking, setRevoking] = useState<TWorkspaceLink>();
  const failed = (message: string) => notifications.show({ color: 'red', message });
  if (links.isPending) return <Loader aria-label="Loading links" />;
  if (links.error) {
    return (
      <Alert color="red" icon={<IconAlertCircle aria-hidden />} role="alert" title="The links could not be shown">
        {links.error.message}
      </Alert>
    );
  }
  if (links.items!.length === 0) {
    return (
      <EmptyState icon={<IconLink size={32} />} title="No live links">
        Links made from an item’s Share dialog appear here until they expire or are revoked.
      </EmptyState>
    );
  }
  return (
    <>
      <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Live links">
        {links.items!.map((l) => (
          <Paper component="li" key={l.id} withBorder p="sm" radius="md" aria-label={`Link to ${l.item.name}`}>
            <Group justify="space-between" wrap="nowrap" gap="sm">
              <div style={{ minWidth: 0 }}>
                {l.item.kind === 'file' ? (
                  <Anchor href={urlOf(filesApi.content, { id: l.item.id })} target="_blank" rel="noopener" fw={600} size="sm" truncate display="block">
                    {l.item.name}
                  </Anchor>
                ) : (
                  <Anchor
                    component={Link}
                    to={pageRoutes.item(workspace.slug, { id: l.item.id, kind: l.item.kind })}
                    fw={600}
                    size="sm"
                    truncate
                    display="block"
                  >
                    {l.item.name}
                  </Anchor>
                )}
                <Text size="xs" c="dimmed">
                  {l.kind === 'file_request' && (
                    <Badge size="xs" variant="outline" color="grape" component="span" mr={6}>
                      File request
                    </Badge>
                  )}
                  {l.hasPassword && (
                    <Badge size="xs" variant="outline" component="span" mr={6}>
                      Password
                    </Badge>
                  )}
                  {l.expiresAt ? `expires ${formatDate(l.expiresAt)}` : 'no expiry'} · {usageOf(l)}
                  {l.kind === 'view' && !l.downloadAllowed ? ' (downloads not allowed)' : ''}
                  {l.createdBy ? ` · by ${l.createdBy.name}` : ''}
                </Text>
              </div>
              <Group gap={4} wrap="nowrap">
                <CopyLinkButton url={l.url} label={`Copy the link to ${l.item.name}`} onFailed={failed} />
                <Tooltip label="Revoke">
                  <ActionIcon variant="subtle" color="red" aria-label={`Revoke the link to ${l.item.name}`} onClick={() => setRevoking(l)}>
                    <IconTrash aria-hidden size={18} />
                  </ActionIcon>
                </Tooltip>
              </Group>
            </Group>
          </Paper>
        ))}
      </Stack>
      {links.hasNextPage && (
        <Group justify="center" mt="sm">
          <Button variant="default" loading={links.isFetchingNextPage} onClick={() => void links.fetchNextPage()}>
            Show more links
          </Button>
        </Group>
      )}
      {revoking && (
        <ConfirmDialog
          title="Revoke this link?"
          confirmLabel="Revoke link"
          pending={revoke.isPending}
          onClose={() => setRevoking(undefined)}
          onConfirm={() =>
            revoke.mutate(
              { itemId: revoking.itemId, linkId: revoking.id },
              {
                onSuccess: () => setRevoking(undefined),
                onError: (e) => {
                  setRevoking(undefined);
                  failed(e.message);
                },
              },
            )
          }
        >
          <Text>Anyone opening the link to “{revoking.item.name}” will be told it has ended. This cannot be undone.</Text>
        </ConfirmDialog>
      )}
    </>
  );
}

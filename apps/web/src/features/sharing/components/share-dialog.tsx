import {
  ActionIcon,
  Alert,
  Anchor,
  Autocomplete,
  Button,
  Divider,
  Group,
  Modal,
  SegmentedControl,
  Select,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import { IconCheck, IconLink, IconTrash, IconUserPlus } from '@tabler/icons-react';
import { type TGrant, type TItem, type TItemRole, type TWorkspace } from '@cabinet/contracts';
import { useId, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { EndDayInput, endOfDay, inDays } from '../../../components/ui/end-day-input.tsx';
import { useReturnFocus } from '../../../components/ui/use-return-focus.ts';
import { useGroups } from '../../groups/api/use-groups.ts';
import { LinksSection } from '../../links/components/links-section.tsx';
import { useGrants, useMemberSuggestions, useShareMutations } from '../api/use-sharing.ts';
import { pageRoutes } from '../../../lib/page-routes.ts';
import { useMutateOnce } from '../../../lib/use-mutate-once.ts';

const ROLES: { value: TItemRole; label: string }[] = [
  { value: 'viewer', label: 'Viewer' },
  { value: 'commenter', label: 'Commenter' },
  { value: 'editor', label: 'Editor' },
  { value: 'manager', label: 'Manager' },
];
const roleLabel = (role: TItemRole) => ROLES.find((r) => r.value === role)!.label;
/** Loose on purpose: the server decides what an address is; this only picks the hint to show. */
const looksLikeEmail = (s: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(s.trim());

const tomorrow = () => inDays(1);

/** Where an item opens in the app, as a full address to send someone. */
export function itemAppUrl(item: TItem, workspace: TWorkspace): string {
  const path = pageRoutes.item(workspace.slug, { id: item.id, kind: item.kind });
  return new URL(path, window.location.origin).href;
}

/** Who a grant is for, as people read it: a person or a group by their name. */
const principalName = (g: TGrant, workspace: TWorkspace) =>
  g.principal.type === 'workspace' ? `Everyone in ${workspace.name}` : g.principal.name || g.principal.email || 'Someone';

/**
 * Share an item: with a person (a member, or by email anyone with an account, who joins as a
 * guest), a group of the workspace's people, or the whole workspace, with a role and an optional end; see who has access — the
 * owner, grants on the item (change their role or end, or remove them), and grants from the
 * folders above (changed on that folder) — its public links (each with its own address), and copy
 * the item's link for members, which only those with access can open.
 */
export function ShareDialog({ item, workspace, onClose }: { item: TItem; workspace: TWorkspace; onClose: () => void }) {
  useReturnFocus();
  const phone = useMediaQuery('(max-width: 36em)');
  const grants = useGrants(item.id);
  const m = useShareMutations(workspace.id, item);
  const shareOnce = useMutateOnce(m.share);
  const [target, setTarget] = useState<'user' | 'group' | 'workspace'>('user');
  const [person, setPerson] = useState('');
  const [groupId, setGroupId] = useState<string | null>(null);
  const [role, setRole] = useState<TItemRole>('viewer');
  const [ends, setEnds] = useState('');
  const [error, setError] = useState<string>();
  const [removing, setRemoving] = useState<TGrant>();
  const [copied, setCopied] = useState(false);
  const noteId = useId();
  const [q] = useDebouncedValue(person.trim(), 200);
  // A guest sees neither the workspace's people nor its groups: they share by email address.
  const seesPeople = workspace.abilities.seeMembers;
  const suggestions = useMemberSuggestions(workspace.id, q, seesPeople && target === 'user');
  const groups = useGroups(workspace.id, seesPeople && target === 'group');
  const members = suggestions.data ?? [];
  const known = members.find((p) => p.email.toLowerCase() === person.trim().toLowerCase());
  const failed = (e: Error) => setError(e.message);

  const submit = () => {
    setError(undefined);
    if (target === 'user' && !person.trim()) return setError('Type the name or email of the person to share with.');
    if (target === 'user' && !known && !looksLikeEmail(person)) return setError('Choose someone from the list, or type their full email address.');
    if (target === 'group' && !groupId) return setError('Choose the group to share with.');
    const principal =
      target === 'workspace'
        ? ({ type: 'workspace' } as const)
        : target === 'group' && groupId
          ? ({ type: 'group', id: groupId } as const)
          : known
            ? ({ type: 'user', id: known.userId } as const)
            : ({ type: 'user', email: person.trim() } as const);
    shareOnce(
      { principal, role, expiresAt: ends ? endOfDay(ends) : null },
      {
        onSuccess: () => {
          setPerson('');
          setGroupId(null);
          setEnds('');
        },
        onError: failed,
      },
    );
  };

  const copyLink = async () => {
    const url = itemAppUrl(item, workspace);
    try {
      await navigator.clipboard.writeText(url);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch {
      setError(`The link could not be copied here. Copy it by hand: ${url}`);
    }
  };

  const list = grants.data?.items ?? [];
  const direct = list.filter((g) => !g.inheritedFrom);
  const inherited = list.filter((g) => g.inheritedFrom);

  return (
    <>
      <Modal
        opened
        onClose={onClose}
        title={
          <Text fw={600} truncate="end">
            Share “{item.name}”
          </Text>
        }
        size="lg"
        fullScreen={!!phone}
      >
        <Stack gap="md">
          {error && (
            <Alert color="red" title="Sharing did not change" withCloseButton closeButtonLabel="Dismiss" onClose={() => setError(undefined)}>
              {error}
            </Alert>
          )}
          <form
            onSubmit={(e) => {
              e.preventDefault();
              submit();
            }}
          >
            <Stack gap="sm">
              <SegmentedControl
                aria-label="Share with"
                fullWidth
                value={target}
                onChange={(v) => setTarget(v as 'user' | 'group' | 'workspace')}
                data={[
                  { value: 'user', label: 'A person' },
                  ...(seesPeople
                    ? [
                        { value: 'group', label: 'A group' },
                        { value: 'workspace', label: 'Whole workspace' },
                      ]
                    : []),
                ]}
              />
              {target === 'user' ? (
                <Autocomplete
                  label="Person"
                  placeholder={seesPeople ? 'Name or email' : 'Their email address'}
                  value={person}
                  onChange={setPerson}
                  data={members.map((p) => p.email)}
                  filter={({ options }) => options}
                  renderOption={({ option }) => {
                    const p = members.find((x) => x.email === option.value);
                    return (
                      <div>
                        <Text size="sm">{p?.name || option.value}</Text>
                        <Text size="xs" c="dimmed">
                          {option.value}
                        </Text>
                      </div>
                    );
                  }}
                  description={
                    seesPeople && person.trim() && !known && looksLikeEmail(person)
                      ? 'Not in this workspace: they join it as a guest and see only what is shared with them.'
                      : seesPeople
                        ? 'Someone in the workspace, or anyone by email.'
                        : 'Share by their email address.'
                  }
                  autoComplete="off"
                />
              ) : target === 'group' ? (
                <Select
                  label="Group"
                  placeholder={groups.isPending ? 'Loading groups…' : groups.data?.length ? 'Choose a group' : 'No groups yet'}
                  data={(groups.data ?? []).map((g) => ({ value: g.id, label: `${g.name} (${g.memberCount === 1 ? '1 person' : `${g.memberCount} people`})` }))}
                  value={groupId}
                  onChange={setGroupId}
                  searchable
                  nothingFoundMessage="No group by that name"
                  description={
                    groups.error
                      ? groups.error.message
                      : groups.data?.length === 0
                        ? 'The owner and admins make groups in the workspace settings.'
                        : 'Everyone in the group gets this role, and whoever leaves it loses it.'
                  }
                  comboboxProps={{ withinPortal: true }}
                />
              ) : (
                <Text size="sm" c="dimmed">
                  Everyone in {workspace.name} (its members, not its guests) gets this role.
                </Text>
              )}
              <Group grow align="flex-start" gap="sm" wrap="wrap">
                <Select label="Role" data={ROLES} value={role} onChange={(v) => v && setRole(v as TItemRole)} allowDeselect={false} miw={140} />
                <TextInput
                  label="Access ends (optional)"
                  type="date"
                  min={tomorrow()}
                  value={ends}
                  onChange={(e) => setEnds(e.currentTarget.value)}
                  miw={150}
                />
              </Group>
              <Group justify="flex-end">
                <Button type="submit" loading={m.share.isPending} leftSection={<IconUserPlus aria-hidden size={18} />}>
                  Share
                </Button>
              </Group>
            </Stack>
          </form>
          <Divider />
          <section aria-labelledby="who-has-access">
            <Title order={3} fz="h5" id="who-has-access" mb="xs">
              Who has access
            </Title>
            {grants.isPending ? (
              <Skeleton h={80} />
            ) : grants.error ? (
              <Text size="sm" c="red">
                {grants.error.message}
              </Text>
            ) : (
              <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }} aria-labelledby="who-has-access">
                {grants.data.owner && (
                  <li>
                    <Group justify="space-between" wrap="nowrap" gap="xs">
                      <Person name={grants.data.owner.name} email={grants.data.owner.email} />
                      <Text size="sm" c="dimmed">
                        Owner
                      </Text>
                    </Group>
                  </li>
                )}
                {direct.map((g) => {
                  const name = principalName(g, workspace);
                  // A guest may take away a grant to a group or the whole workspace, but not change it (that is sharing with them).
                  const fixed = !seesPeople && g.principal.type !== 'user';
                  return (
                    <li key={g.id}>
                      <Group justify="space-between" gap="xs" wrap="wrap">
                        <Person name={name} email={g.principal.type === 'user' ? g.principal.email : null}>
                          {g.principal.type === 'group' && <GroupNote />}
                        </Person>
                        <Group gap="xs" wrap="nowrap">
                          <Select
                            size="xs"
                            w={120}
                            aria-label={`Role of ${name}`}
                            data={ROLES}
                            value={g.role}
                            allowDeselect={false}
                            disabled={fixed}
                            onChange={(v) => v && v !== g.role && m.update.mutate({ grantId: g.id, role: v as TItemRole }, { onError: failed })}
                          />
                          <EndDayInput
                            disabled={fixed}
                            // A new end from the server starts the field afresh.
                            key={g.expiresAt ?? 'none'}
                            label={`Access of ${name} ends`}
                            value={g.expiresAt}
                            onCommit={(expiresAt) => m.update.mutate({ grantId: g.id, expiresAt }, { onError: failed })}
                          />
                          <ActionIcon variant="subtle" color="red" aria-label={`Remove access of ${name}`} onClick={() => setRemoving(g)}>
                            <IconTrash aria-hidden size={16} />
                          </ActionIcon>
                        </Group>
                      </Group>
                    </li>
                  );
                })}
                {inherited.map((g) => {
                  const from = g.inheritedFrom!;
                  return (
                    <li key={g.id}>
                      <Group justify="space-between" gap="xs" wrap="wrap">
                        <Person name={principalName(g, workspace)} email={g.principal.type === 'user' ? g.principal.email : null}>
                          {g.principal.type === 'group' && <GroupNote />}
                          <Text size="xs" c="dimmed">
                            from folder{' '}
                            <Anchor
                              component={Link}
                              to={pageRoutes.folder(workspace.slug, from.id)}
                              size="xs"
                              onClick={onClose}
                              aria-label={`Open folder ${from.name}`}
                            >
                              {from.name}
                            </Anchor>
                          </Text>
                        </Person>
                        <Text size="sm" c="dimmed">
                          {roleLabel(g.role)}
                          {g.expiresAt ? ` until ${new Date(g.expiresAt).toLocaleDateString()}` : ''}
                        </Text>
                      </Group>
                    </li>
                  );
                })}
                {direct.length + inherited.length === 0 && (
                  <li>
                    <Text size="sm" c="dimmed">
                      Not shared with anyone yet. Whoever can see the folder it is in can see it too.
                    </Text>
                  </li>
                )}
              </Stack>
            )}
          </section>
          {grants.data && (
            <>
              <Divider />
              <LinksSection item={item} workspace={workspace} />
            </>
          )}
          <Group justify="space-between" align="flex-start" gap="sm">
            {/* Not a public link: it opens the item in Cabinet, for those who have access (Google Drive's "Copy link"). */}
            <Stack gap={4} miw={0} style={{ flex: '1 1 12rem' }}>
              <Button
                variant="default"
                leftSection={copied ? <IconCheck aria-hidden size={18} /> : <IconLink aria-hidden size={18} />}
                onClick={() => void copyLink()}
                aria-describedby={noteId}
                style={{ alignSelf: 'flex-start' }}
              >
                {copied ? 'Link for members copied' : 'Copy link for members'}
              </Button>
              <Text id={noteId} size="xs" c="dimmed">
                Opens it in Cabinet, only for people who have access. To share with anyone, use a public link above.
              </Text>
            </Stack>
            <Button variant="subtle" onClick={onClose}>
              Done
            </Button>
          </Group>
        </Stack>
      </Modal>
      {removing && (
        <ConfirmDialog
          title="Remove access?"
          confirmLabel="Remove"
          pending={m.remove.isPending}
          onClose={() => setRemoving(undefined)}
          onConfirm={() =>
            m.remove.mutate(removing.id, {
              onSuccess: () => setRemoving(undefined),
              onError: (e) => {
                setRemoving(undefined);
                failed(e);
              },
            })
          }
        >
          <Text>
            {principalName(removing, workspace)} will no longer have access to “{item.name}” through this share. Access given on a folder above it stays.
          </Text>
        </ConfirmDialog>
      )}
    </>
  );
}

/** A name, the address under it, and (for an inherited grant) where it comes from. */
function Person({ name, email, children }: { name: string; email: string | null; children?: ReactNode }) {
  return (
    <Stack gap={0} miw={0} style={{ flex: '1 1 10rem' }}>
      <Text size="sm" fw={500} truncate="end">
        {name}
      </Text>
      {email && email !== name && (
        <Text size="xs" c="dimmed" truncate="end">
          {email}
        </Text>
      )}
      {children}
    </Stack>
  );
}

/** Said under a group's name in who has access. */
function GroupNote() {
  return (
    <Text size="xs" c="dimmed">
      Group
    </Text>
  );
}

import { Alert, Button, Group, Modal, NumberInput, SegmentedControl, Select, Stack, Text, Textarea } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { ShownOnce } from '../../../components/ui/shown-once.tsx';
import { LIMITS, type TCreatedInvitation, type TCreateInvitationRequest, type TWorkspace } from '@cabinet/contracts';
import { useState, type FormEvent } from 'react';
import { refusalMessage } from '../../../lib/field-message.ts';
import { useCreateInvitation } from '../api/use-team.ts';
import { useReturnFocus } from '../../../components/ui/use-return-focus.ts';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** What each role invited to does, under the role's field. */
const ROLE_HINTS: Record<TCreateInvitationRequest['role'], string> = {
  member: 'A member works in the shared workspace.',
  admin: 'An admin also manages people, groups, links and settings.',
};

/** Invites people by email (one invitation each, mailed) or makes an invite link to copy. */
export function InviteDialog({ workspace, onClose }: { workspace: TWorkspace; onClose: () => void }) {
  useReturnFocus();
  const create = useCreateInvitation(workspace.id);
  const [mode, setMode] = useState<'email' | 'link'>('email');
  const [emails, setEmails] = useState('');
  const [role, setRole] = useState<TCreateInvitationRequest['role']>('member');
  const [days, setDays] = useState<number | string>(LIMITS.invitationDefaultDays);
  const [maxUses, setMaxUses] = useState<number | string>('');
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState<string[]>([]);
  const [link, setLink] = useState<TCreatedInvitation | null>(null);
  const roles = [
    { value: 'member', label: 'Member' },
    { value: 'admin', label: 'Admin' },
  ];
  // The longest allowed expiry is kept an hour short of the limit: this device's clock may run ahead of the server's.
  const expiresAt = () =>
    new Date(
      Date.now() + Math.min((Number(days) || LIMITS.invitationDefaultDays) * 86_400_000, LIMITS.invitationMaxDays * 86_400_000 - 3_600_000),
    ).toISOString();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (mode === 'link') {
      try {
        setLink(await create.mutateAsync({ role, expiresAt: expiresAt(), ...(Number(maxUses) > 0 ? { maxUses: Number(maxUses) } : {}) }));
      } catch (e) {
        setError(refusalMessage(e));
      }
      return;
    }
    const list = [
      ...new Set(
        emails
          .split(/[\s,;]+/)
          .map((e) => e.trim())
          .filter(Boolean),
      ),
    ];
    if (!list.length) return setError('Enter at least one email address');
    const bad = list.find((e) => !EMAIL.test(e));
    if (bad) return setError(`“${bad}” is not an email address`);
    const done: string[] = [];
    for (const email of list) {
      try {
        await create.mutateAsync({ email, role, expiresAt: expiresAt() });
        done.push(email);
      } catch (e) {
        setError(`${email}: ${refusalMessage(e)}`);
        break;
      }
    }
    setSent((s) => [...s, ...done]);
    setEmails(list.filter((e) => !done.includes(e)).join('\n'));
  };

  return (
    <Modal opened onClose={onClose} title={`Invite people to ${workspace.name}`} centered size="lg">
      <form onSubmit={(e) => void submit(e)} noValidate>
        <Stack>
          <SegmentedControl
            aria-label="How to invite"
            value={mode}
            onChange={(v) => {
              setMode(v as 'email' | 'link');
              setError(null);
            }}
            data={[
              { value: 'email', label: 'By email' },
              { value: 'link', label: 'Invite link' },
            ]}
            fullWidth
          />
          {mode === 'email' ? (
            <Textarea
              label="Email addresses"
              description="Separate several with commas or new lines."
              value={emails}
              onChange={(e) => setEmails(e.currentTarget.value)}
              autosize
              minRows={2}
              data-autofocus
            />
          ) : (
            <Text size="sm" c="dimmed">
              Anyone with the link can join until it expires or is used up. Share it only with the people you mean.
            </Text>
          )}
          <Select
            label="Role"
            data={roles}
            value={role}
            description={`${ROLE_HINTS[role]} Guests are not invited: share an item with them instead.`}
            onChange={(v) => v && setRole(v as TCreateInvitationRequest['role'])}
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
          />
          <Group grow wrap="wrap" align="flex-start">
            <NumberInput label="Expires in (days)" value={days} onChange={setDays} min={1} max={LIMITS.invitationMaxDays} miw={140} />
            {mode === 'link' && (
              <NumberInput
                label="Maximum uses"
                description="Empty: no limit"
                value={maxUses}
                onChange={setMaxUses}
                min={1}
                max={LIMITS.invitationMaxUses}
                miw={140}
              />
            )}
          </Group>
          {error && (
            <Alert color="red" icon={<IconAlertCircle aria-hidden />} role="alert">
              {error}
            </Alert>
          )}
          {mode === 'email' && sent.length > 0 && (
            <Alert color="green" role="status" title="Invitations sent">
              {sent.join(', ')}
            </Alert>
          )}
          {mode === 'link' && link && (
            <Alert color="green" role="status" title="Invite link created">
              <ShownOnce value={link.url} label="New invite link" copyLabel="Copy invite link" />
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Done
            </Button>
            <Button type="submit" loading={create.isPending}>
              {mode === 'email' ? 'Send invitations' : 'Create invite link'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

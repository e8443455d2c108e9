import { Button, Group, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconLock } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { useMe } from '../../auth/api/use-me.ts';
import { useUpdateProfile } from '../api/use-update-profile.ts';

export function ProfileSection() {
  const me = useMe();
  // A new form when the saved name changes, so the field starts from what is stored.
  return <ProfileForm key={me.data?.user.name} savedName={me.data?.user.name ?? ''} email={me.data?.user.email ?? ''} />;
}

function ProfileForm({ savedName, email }: { savedName: string; email: string }) {
  const update = useUpdateProfile();
  const [name, setName] = useState(savedName);
  const [error, setError] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) return setError('Enter your name');
    update.mutate({ name: name.trim() }, { onSuccess: () => notifications.show({ message: 'Name saved', color: 'green' }) });
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack maw={420}>
        <TextInput
          label="Name"
          value={name}
          onChange={(e) => {
            setName(e.currentTarget.value);
            setError(null);
          }}
          error={error}
          maxLength={200}
          required
        />
        {/* Not editable here: shown as text (no box, no caret to type into), still a labelled, read-only field for screen readers. */}
        <TextInput
          label="Email"
          value={email}
          readOnly
          variant="unstyled"
          leftSection={<IconLock aria-hidden size={16} />}
          description="Your email comes from your identity provider; change it there."
        />
        <Group>
          <Button type="submit" loading={update.isPending} disabled={name.trim() === savedName}>
            Save name
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

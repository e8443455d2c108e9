import { Button, Group, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { FormEvent } from 'react';
import { useTextField } from '../../../components/ui/use-text-field.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { useChangePassword } from '../api/use-change-password.ts';

/** Changing the password while signed in: the current one first, then the new one; every other session ends. */
export function PasswordForm() {
  const change = useChangePassword();
  const current = useTextField();
  const next = useTextField();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!current.value) return current.setError('Enter your current password');
    if (!next.value) return next.setError('Enter a new password');
    change.mutate(
      { currentPassword: current.value, newPassword: next.value },
      {
        onSuccess: () => {
          current.setValue('');
          next.setValue('');
          notifications.show({ color: 'green', title: 'Password changed', message: 'Your other sessions were signed out.' });
        },
        onError: (e) => {
          const fields = e instanceof ApiError ? ((e.details?.fields ?? []) as { path: string; message: string }[]) : [];
          for (const f of fields) (f.path === 'currentPassword' ? current : next).setError(f.message);
          if (!fields.length) notifications.show({ color: 'red', title: 'Password not changed', message: e.message });
        },
      },
    );
  };
  return (
    <Stack gap="xs">
      <Title order={3} fz="md">
        Password
      </Title>
      <Text size="sm">Changing it signs you out of every other browser and app that signed in with it.</Text>
      <form onSubmit={submit} noValidate aria-label="Change password">
        <Group align="flex-start" wrap="wrap">
          <PasswordInput label="Current password" autoComplete="current-password" w={{ base: '100%', xs: 240 }} {...current.input} />
          <PasswordInput label="New password" autoComplete="new-password" w={{ base: '100%', xs: 240 }} {...next.input} />
          <Button type="submit" loading={change.isPending} mt={{ base: 0, xs: 25 }}>
            Change password
          </Button>
        </Group>
      </form>
    </Stack>
  );
}

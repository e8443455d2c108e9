import { Button, Group, TextInput } from '@mantine/core';
import type { TCreateApiTokenRequest, TCreatedApiToken } from '@cabinet/contracts';
import type { FormEvent, ReactNode } from 'react';
import { useTextField } from '../../../components/ui/use-text-field.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { useCreateApiToken } from '../api/use-api-tokens.ts';

/** The form making an API token or an app password: its name (what it is for), the section's other choices, the button. */
export function TokenForm({
  label,
  nameLabel,
  placeholder,
  missingName,
  submitLabel,
  request,
  onCreated,
  children,
}: {
  /** The form's name. */
  label: string;
  nameLabel: string;
  placeholder: string;
  /** The error under an empty name. */
  missingName: string;
  submitLabel: string;
  /** What is asked for, named `name`. */
  request: (name: string) => TCreateApiTokenRequest;
  /** The token made, its secret in it this once. */
  onCreated: (token: TCreatedApiToken) => void;
  /** The section's other choices, between the name and the button. */
  children?: ReactNode;
}) {
  const create = useCreateApiToken();
  const name = useTextField();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!name.value.trim()) return name.setError(missingName);
    create.mutate(request(name.value.trim()), {
      onSuccess: (token) => {
        onCreated(token);
        name.setValue('');
      },
      onError: (e) => name.setError(e instanceof ApiError ? e.message : 'Could not create it. Try again.'),
    });
  };

  return (
    <form onSubmit={submit} noValidate aria-label={label}>
      <Group align="flex-end" wrap="wrap">
        <TextInput label={nameLabel} placeholder={placeholder} maxLength={100} w={{ base: '100%', xs: 240 }} {...name.input} />
        {children}
        <Button type="submit" loading={create.isPending}>
          {submitLabel}
        </Button>
      </Group>
    </form>
  );
}

import { ActionIcon, Alert, Button, Checkbox, Code, Group, NumberInput, Paper, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { IconKey, IconTrash } from '@tabler/icons-react';
import { ShownOnce } from '../../../components/ui/shown-once.tsx';
import type { TCreatedApiToken, TTokenScope } from '@cabinet/contracts';
import { useState, type FormEvent } from 'react';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { formatDate, formatRelative } from '../../../lib/format.ts';
import { useApiTokens, useCreateApiToken, useRevokeApiToken } from '../api/use-api-tokens.ts';

export function ApiTokensSection() {
  const tokens = useApiTokens();
  const create = useCreateApiToken();
  const revoke = useRevokeApiToken();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<TTokenScope[]>(['read', 'write']);
  const [days, setDays] = useState<number | string>(90);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<TCreatedApiToken | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) return setError('Give the token a name');
    create.mutate(
      { name: name.trim(), scopes, expiresInDays: Number(days) || 90 },
      {
        onSuccess: (token) => {
          setCreated(token);
          setName('');
        },
        onError: (e) => setError(e instanceof ApiError ? e.message : 'Could not create the token.'),
      },
    );
  };

  return (
    <Stack>
      <Text c="dimmed" size="sm">
        Scripts call the API with <Code>Authorization: Bearer &lt;token&gt;</Code>. See the <a href="/api/docs">API reference</a>.
      </Text>
      <form onSubmit={submit} noValidate aria-label="Create API token">
        <Group align="flex-end" wrap="wrap">
          <TextInput
            label="Token name"
            placeholder="Backup script"
            value={name}
            onChange={(e) => {
              setName(e.currentTarget.value);
              setError(null);
            }}
            error={error}
            maxLength={100}
            w={{ base: '100%', xs: 240 }}
          />
          <NumberInput label="Expires in (days)" value={days} onChange={setDays} min={1} max={365} w={140} />
          <Checkbox.Group label="Scopes" value={scopes} onChange={(v) => setScopes(v.length ? (v as TTokenScope[]) : ['read'])}>
            <Group gap="sm" mt={8} mb={8}>
              <Checkbox value="read" label="Read" />
              <Checkbox value="write" label="Write" />
            </Group>
          </Checkbox.Group>
          <Button type="submit" loading={create.isPending}>
            Create token
          </Button>
        </Group>
      </form>
      {created && (
        <Alert
          color="green"
          title={`Token “${created.name}” created`}
          withCloseButton
          closeButtonLabel="Dismiss"
          onClose={() => setCreated(null)}
          role="status"
        >
          <ShownOnce value={created.token} label="New API token" copyLabel="Copy token" />
        </Alert>
      )}
      {tokens.data?.length === 0 && (
        <EmptyState icon={<IconKey size={32} />} title="No API tokens">
          Create a token to let a script work with Cabinet on your behalf.
        </EmptyState>
      )}
      <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="API tokens">
        {tokens.data?.map((t) => (
          <Paper component="li" key={t.id} withBorder p="sm" radius="md">
            <Group justify="space-between" wrap="nowrap">
              <div style={{ minWidth: 0 }}>
                <Text fw={600} size="sm" truncate>
                  {t.name}
                </Text>
                <Text size="xs" c="dimmed">
                  {t.scopes.join(' + ')} · expires {formatDate(t.expiresAt)} · {t.lastUsedAt ? `used ${formatRelative(t.lastUsedAt)}` : 'never used'}
                </Text>
              </div>
              <Tooltip label="Revoke">
                <ActionIcon
                  variant="subtle"
                  color="red"
                  onClick={() => revoke.mutate(t.id)}
                  aria-label={`Revoke token ${t.name}`}
                  loading={revoke.isPending && revoke.variables === t.id}
                >
                  <IconTrash size={18} />
                </ActionIcon>
              </Tooltip>
            </Group>
          </Paper>
        ))}
      </Stack>
    </Stack>
  );
}

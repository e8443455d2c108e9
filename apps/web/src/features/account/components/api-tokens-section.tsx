import { Checkbox, Code, Group, NumberInput, Stack, Text } from '@mantine/core';
import { IconKey } from '@tabler/icons-react';
import type { TCreatedApiToken, TTokenScope } from '@cabinet/contracts';
import { useState } from 'react';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { useApiTokens } from '../api/use-api-tokens.ts';
import { NewToken } from './new-token.tsx';
import { TokenForm } from './token-form.tsx';
import { TokenList } from './token-list.tsx';

export function ApiTokensSection() {
  const tokens = useApiTokens();
  const [scopes, setScopes] = useState<TTokenScope[]>(['read', 'write']);
  const [days, setDays] = useState<number | string>(90);
  const [created, setCreated] = useState<TCreatedApiToken | null>(null);

  return (
    <Stack>
      <Text c="dimmed" size="sm">
        Scripts call the API with <Code>Authorization: Bearer &lt;token&gt;</Code>. See the <a href="/api/docs">API reference</a>. File managers and sync tools
        sign in with an app password instead.
      </Text>
      <TokenForm
        label="Create API token"
        nameLabel="Token name"
        placeholder="Backup script"
        missingName="Give the token a name"
        submitLabel="Create token"
        request={(name) => ({ name, scopes, expiresInDays: Number(days) || 90 })}
        onCreated={setCreated}
      >
        <NumberInput label="Expires in (days)" value={days} onChange={setDays} min={1} max={365} w={140} />
        <Checkbox.Group label="Scopes" value={scopes} onChange={(v) => setScopes(v.length ? (v as TTokenScope[]) : ['read'])}>
          <Group gap="sm" mt={8} mb={8}>
            <Checkbox value="read" label="Read" />
            <Checkbox value="write" label="Write" />
          </Group>
        </Checkbox.Group>
      </TokenForm>
      {created && (
        <NewToken title="New API token" fields={[{ term: 'Token', value: created.token, copyLabel: 'Copy token' }]} onDismiss={() => setCreated(null)}>
          “{created.name}” can call the API.
        </NewToken>
      )}
      <TokenList
        tokens={tokens.data}
        noun="API token"
        label="API tokens"
        showScopes
        consequence="Scripts that use it stop working at once."
        empty={
          <EmptyState icon={<IconKey size={32} />} title="No API tokens">
            Create a token to let a script work with Cabinet on your behalf.
          </EmptyState>
        }
      />
    </Stack>
  );
}

import { Code, Stack, Text } from '@mantine/core';
import { IconDeviceLaptop } from '@tabler/icons-react';
import type { TCreatedApiToken } from '@cabinet/contracts';
import { useState } from 'react';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { useMe } from '../../auth/api/use-me.ts';
import { appPasswordRequest, useAppPasswords } from '../api/use-app-passwords.ts';
import { NewToken } from './new-token.tsx';
import { TokenForm } from './token-form.tsx';
import { TokenList } from './token-list.tsx';

/** Passwords for WebDAV clients, one per device or app, each revoked on its own. */
export function AppPasswordsSection() {
  const passwords = useAppPasswords();
  const me = useMe();
  const [created, setCreated] = useState<TCreatedApiToken | null>(null);

  return (
    <Stack>
      <Text c="dimmed" size="sm">
        Connect Finder, Windows Explorer, rclone or a phone’s file app to your files at <Code>/dav/</Code>. Make an app password for each device or app, and
        revoke it on its own when you stop using it. An app password reaches your files, not the API.
      </Text>
      <TokenForm
        label="Create app password"
        nameLabel="Device or app"
        placeholder="Finder on my laptop"
        missingName="Name the device or app"
        submitLabel="Create app password"
        request={appPasswordRequest}
        onCreated={setCreated}
      />
      {created && (
        <NewToken
          title="New app password"
          fields={[
            { term: 'Server address', value: `${window.location.origin}/dav/`, copyLabel: 'Copy server address' },
            { term: 'User name', value: me.data?.user.email ?? '', copyLabel: 'Copy user name' },
            { term: 'Password', value: created.token, copyLabel: 'Copy app password' },
          ]}
          onDismiss={() => setCreated(null)}
        >
          Sign in “{created.name}” with these.
        </NewToken>
      )}
      <TokenList
        tokens={passwords.data}
        noun="app password"
        label="App passwords"
        consequence="Devices and apps that sign in with it lose access to your files at once."
        empty={
          <EmptyState icon={<IconDeviceLaptop size={32} />} title="No app passwords">
            Create one to reach your files from a computer’s file manager, a phone or a sync tool.
          </EmptyState>
        }
      />
    </Stack>
  );
}

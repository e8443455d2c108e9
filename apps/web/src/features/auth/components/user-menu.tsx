import { Avatar, Menu, UnstyledButton } from '@mantine/core';
import { IconLogout, IconShield, IconUserCircle } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useMe } from '../api/use-me.ts';
import { useSignOut } from '../api/use-sign-out.ts';
import { pageRoutes } from '../../../lib/page-routes.ts';

export function initials(name: string): string {
  return (
    name
      .split(/\s+/)
      .filter(Boolean)
      .slice(0, 2)
      .map((p) => p[0]!.toUpperCase())
      .join('') || '?'
  );
}

export function UserMenu() {
  const me = useMe();
  const signOut = useSignOut();
  const user = me.data?.user;
  return (
    <Menu position="bottom-end" width={220} shadow="md">
      <Menu.Target>
        <UnstyledButton aria-label="Account menu">
          <Avatar src={user?.avatarUrl ?? null} radius="xl" color="blue" alt="">
            {initials(user?.name ?? '')}
          </Avatar>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{user?.email}</Menu.Label>
        <Menu.Item component={Link} to={pageRoutes.account()} leftSection={<IconUserCircle aria-hidden size={16} />}>
          Account
        </Menu.Item>
        {user?.isInstanceAdmin && (
          <Menu.Item component={Link} to={pageRoutes.admin()} leftSection={<IconShield aria-hidden size={16} />}>
            Administration
          </Menu.Item>
        )}
        <Menu.Item leftSection={<IconLogout aria-hidden size={16} />} onClick={() => signOut.mutate()} disabled={signOut.isPending}>
          Sign out
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

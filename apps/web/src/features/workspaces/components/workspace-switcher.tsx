import { Box, Button, Menu, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconCheck, IconPlus, IconSelector, IconUsers } from '@tabler/icons-react';
import type { TWorkspace } from '@cabinet/contracts';
import { lazy, Suspense, useId } from 'react';
import { useNavigate } from 'react-router';
import { useWorkspaces } from '../api/use-workspaces.ts';
import { pageRoutes } from '../../../lib/page-routes.ts';

// Fetched when first asked for, not with every page.
const CreateWorkspaceModal = lazy(() => import('./create-workspace-modal.tsx').then((m) => ({ default: m.CreateWorkspaceModal })));

export function WorkspaceSwitcher({ current }: { current: TWorkspace | undefined }) {
  const workspaces = useWorkspaces();
  const navigate = useNavigate();
  const [creating, { open, close }] = useDisclosure(false);
  const listLabel = useId();
  return (
    <>
      <Menu position="bottom-start" width={260} shadow="md">
        <Menu.Target>
          <Button
            variant="subtle"
            color="gray"
            rightSection={<IconSelector aria-hidden size={16} />}
            aria-label={`Workspace: ${current?.name ?? 'none'}. Switch workspace`}
            maw={{ base: 170, xs: 260 }}
            px="xs"
          >
            <Text truncate fw={600} size="sm">
              {current?.name ?? 'Workspaces'}
            </Text>
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Label id={listLabel}>Workspaces</Menu.Label>
          {/*
            A person in many workspaces scrolls this list; the actions below it stay on screen. The arrows move through its
            items as through the menu's; Tab stops on the list too, where the arrows and Page Down scroll it.
          */}
          <Box role="group" aria-labelledby={listLabel} tabIndex={0} mah="min(50vh, 22rem)" style={{ overflowY: 'auto' }}>
            {workspaces.data?.map((w) => (
              <Menu.Item
                key={w.id}
                onClick={() => navigate(pageRoutes.workspace(w.slug))}
                rightSection={w.id === current?.id ? <IconCheck aria-label="current" size={16} /> : null}
              >
                <Text truncate size="sm">
                  {w.name}
                </Text>
              </Menu.Item>
            ))}
          </Box>
          <Menu.Divider />
          {current?.abilities.manageMembers && (
            <Menu.Item leftSection={<IconUsers aria-hidden size={16} />} onClick={() => navigate(pageRoutes.settings(current.slug, 'members'))}>
              Members and invitations
            </Menu.Item>
          )}
          <Menu.Item leftSection={<IconPlus aria-hidden size={16} />} onClick={open}>
            Create workspace
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      {creating && (
        <Suspense fallback={null}>
          <CreateWorkspaceModal onClose={close} />
        </Suspense>
      )}
    </>
  );
}

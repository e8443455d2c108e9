import { Anchor, Group, NavLink, Paper, Stack, Title } from '@mantine/core';
import { IconHistory, IconLink, IconLock, IconSearch, IconUsers, IconUsersGroup } from '@tabler/icons-react';
import type { TWorkspace } from '@cabinet/contracts';
import type { ReactNode } from 'react';
import { Link, Outlet, useLocation, useOutletContext } from 'react-router';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { GroupsSection } from '../../features/groups/components/groups-section.tsx';
import { InvitationsSection } from '../../features/team/components/invitations-section.tsx';
import { MembersSection } from '../../features/team/components/members-section.tsx';
import { AuditLog } from '../../features/activity/components/audit-log.tsx';
import { LinkPolicySection, WorkspaceLinksSection } from '../../features/links/components/link-settings.tsx';
import { SearchSettingsSection } from '../../features/search/components/search-settings.tsx';

/** The pages of a workspace's settings; each later settings page joins this list. */
const PAGES = [
  { path: 'members', label: 'Members', icon: IconUsers },
  { path: 'groups', label: 'Groups', icon: IconUsersGroup },
  { path: 'links', label: 'Public links', icon: IconLink },
  { path: 'search', label: 'Search', icon: IconSearch },
  { path: 'audit', label: 'Audit log', icon: IconHistory },
] as const;

export const mayManage = (w: TWorkspace | undefined) => w?.role === 'owner' || w?.role === 'admin';

/** Workspace settings: a nav of its pages beside the one open. For the owner and admins. */
export function SettingsLayout() {
  const workspace = useOutletContext<TWorkspace>();
  const location = useLocation();
  if (!mayManage(workspace)) {
    return (
      <EmptyState icon={<IconLock size={32} />} title="Only the owner and admins see the workspace settings">
        Ask the owner of “{workspace.name}” if something here needs changing.{' '}
        <Anchor component={Link} to={`/w/${workspace.slug}`}>
          Back to the workspace
        </Anchor>
      </EmptyState>
    );
  }
  const base = `/w/${workspace.slug}/settings`;
  return (
    <Stack maw={960} gap="lg">
      <Title order={1} fz="h2">
        Workspace settings
      </Title>
      <Group align="flex-start" gap="lg" wrap="wrap">
        <nav aria-label="Settings" style={{ flex: '0 0 180px' }}>
          {PAGES.map((p) => {
            const to = `${base}/${p.path}`;
            const active = location.pathname === to;
            return (
              <NavLink
                key={p.path}
                component={Link}
                to={to}
                label={p.label}
                leftSection={<p.icon aria-hidden size={18} />}
                active={active}
                aria-current={active ? 'page' : undefined}
              />
            );
          })}
        </nav>
        <div style={{ flex: '1 1 320px', minWidth: 0 }}>
          <Outlet context={workspace} />
        </div>
      </Group>
    </Stack>
  );
}

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Paper component="section" aria-labelledby={id} withBorder radius="md" p={{ base: 'sm', sm: 'lg' }}>
      <Title order={2} fz="h4" id={id} mb="md">
        {title}
      </Title>
      {children}
    </Paper>
  );
}

export function MembersSettingsPage() {
  const workspace = useOutletContext<TWorkspace>();
  return (
    <Stack gap="lg">
      <Section id="members" title="Members">
        <MembersSection workspace={workspace} />
      </Section>
      <Section id="invitations" title="Invitations">
        <InvitationsSection workspace={workspace} />
      </Section>
    </Stack>
  );
}

export function GroupsSettingsPage() {
  const workspace = useOutletContext<TWorkspace>();
  return (
    <Section id="groups" title="Groups">
      <GroupsSection workspace={workspace} />
    </Section>
  );
}

export function AuditSettingsPage() {
  const workspace = useOutletContext<TWorkspace>();
  return (
    <Section id="audit" title="Audit log">
      <AuditLog workspace={workspace} />
    </Section>
  );
}

export function LinksSettingsPage() {
  const workspace = useOutletContext<TWorkspace>();
  return (
    <Stack gap="lg">
      <Section id="link-policy" title="Link policy">
        <LinkPolicySection workspace={workspace} />
      </Section>
      <Section id="live-links" title="Live links">
        <WorkspaceLinksSection workspace={workspace} />
      </Section>
    </Stack>
  );
}

export function SearchSettingsPage() {
  const workspace = useOutletContext<TWorkspace>();
  return (
    <Section id="search-language" title="Search language">
      <SearchSettingsSection workspace={workspace} />
    </Section>
  );
}

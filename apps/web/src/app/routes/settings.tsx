import { Anchor, Group, NavLink, Stack, Title } from '@mantine/core';
import { IconHistory, IconLink, IconLock, IconSearch, IconUsers, IconUsersGroup } from '@tabler/icons-react';
import type { TWorkspace } from '@cabinet/contracts';
import { Link, Navigate, Outlet, useLocation, useOutletContext } from 'react-router';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { Section } from '../../components/ui/section.tsx';
import { GroupsSection } from '../../features/groups/components/groups-section.tsx';
import { InvitationsSection } from '../../features/team/components/invitations-section.tsx';
import { MembersSection } from '../../features/team/components/members-section.tsx';
import { AuditLog } from '../../features/activity/components/audit-log.tsx';
import { LinkPolicySection, WorkspaceLinksSection } from '../../features/links/components/link-settings.tsx';
import { SearchSettingsSection } from '../../features/search/components/search-settings.tsx';
import { SETTINGS_PAGES, settingsPagesFor, settingsPath, type SettingsPage } from './settings-pages.ts';
import { pageRoutes } from '../../lib/page-routes.ts';

const ICONS: Record<SettingsPage['path'], typeof IconUsers> = {
  members: IconUsers,
  groups: IconUsersGroup,
  links: IconLink,
  search: IconSearch,
  audit: IconHistory,
};

/** `settings/` alone: the first page the caller may use (the layout has turned away anyone who may use none). */
export function SettingsIndex() {
  const to = settingsPath(useOutletContext<TWorkspace>());
  return to ? <Navigate to={to} replace /> : null;
}

/** Workspace settings: a nav of the pages the caller may use beside the one open (the owner and admins may use them all). */
export function SettingsLayout() {
  const workspace = useOutletContext<TWorkspace>();
  const location = useLocation();
  const pages = settingsPagesFor(workspace);
  const open = SETTINGS_PAGES.find((p) => location.pathname === pageRoutes.settings(workspace.slug, p.path));
  if (!pages.length || (open && !workspace.abilities[open.ability])) {
    return (
      <EmptyState icon={<IconLock size={32} />} title="Only the owner and admins see the workspace settings">
        Ask the owner of “{workspace.name}” if something here needs changing.{' '}
        <Anchor component={Link} to={pageRoutes.workspace(workspace.slug)}>
          Back to the workspace
        </Anchor>
      </EmptyState>
    );
  }
  return (
    <Stack maw={960} gap="lg">
      <Title order={1} fz="h2">
        Workspace settings
      </Title>
      <Group align="flex-start" gap="lg" wrap="wrap">
        <nav aria-label="Settings" style={{ flex: '0 0 180px' }}>
          {pages.map((p) => {
            const to = pageRoutes.settings(workspace.slug, p.path);
            const Icon = ICONS[p.path];
            const active = location.pathname === to;
            return (
              <NavLink
                key={p.path}
                component={Link}
                to={to}
                label={p.label}
                leftSection={<Icon aria-hidden size={18} />}
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

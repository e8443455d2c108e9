import { Anchor, Group, NavLink, Stack, Title } from '@mantine/core';
import { IconActivityHeartbeat, IconAdjustments, IconBuilding, IconHistory, IconStack2, IconLock, IconUsers } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link, Outlet, useLocation } from 'react-router';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { PageLoader } from '../../components/ui/page-loader.tsx';
import { Section } from '../../components/ui/section.tsx';
import { AdminAudit } from '../../features/admin/components/admin-audit.tsx';
import { AdminJobs } from '../../features/admin/components/admin-jobs.tsx';
import { AdminOverview } from '../../features/admin/components/admin-overview.tsx';
import { AdminPeople } from '../../features/admin/components/admin-people.tsx';
import { AdminSettings } from '../../features/admin/components/admin-settings.tsx';
import { AdminWorkspaces } from '../../features/admin/components/admin-workspaces.tsx';
import { useMe } from '../../features/auth/api/use-me.ts';
import { pageRoutes, type AdminPageName } from '../../lib/page-routes.ts';
import { PersonalShell } from '../shell.tsx';

const PAGES: { path: AdminPageName | undefined; label: string; icon: typeof IconUsers }[] = [
  { path: undefined, label: 'Overview', icon: IconActivityHeartbeat },
  { path: 'workspaces', label: 'Workspaces', icon: IconBuilding },
  { path: 'people', label: 'People', icon: IconUsers },
  { path: 'jobs', label: 'Background jobs', icon: IconStack2 },
  { path: 'settings', label: 'Settings', icon: IconAdjustments },
  { path: 'audit', label: 'Audit log', icon: IconHistory },
];

/** Instance administration: a nav of its pages beside the one open, for instance administrators only. */
export function AdminLayout() {
  const me = useMe();
  const location = useLocation();
  let content;
  if (me.isPending) content = <PageLoader label="Loading" />;
  else if (!me.data?.user.isInstanceAdmin) {
    content = (
      <EmptyState icon={<IconLock size={32} />} title="Only instance administrators see this page">
        The people who run this Cabinet look after its workspaces, accounts and backups here.{' '}
        <Anchor component={Link} to={pageRoutes.root()}>
          Back to your files
        </Anchor>
      </EmptyState>
    );
  } else {
    content = (
      <Stack maw={1040} gap="lg">
        <Title order={1} fz="h2">
          Administration
        </Title>
        <Group align="flex-start" gap="lg" wrap="wrap">
          <nav aria-label="Administration" style={{ flex: '0 0 190px' }}>
            {PAGES.map((p) => {
              const to = pageRoutes.admin(p.path);
              const active = location.pathname === to;
              return (
                <NavLink
                  key={to}
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
            <Outlet />
          </div>
        </Group>
      </Stack>
    );
  }
  return <PersonalShell>{content}</PersonalShell>;
}

/** A page that is one titled section. */
const sectionPage = (id: string, title: string, Body: () => ReactNode) =>
  function SectionPage() {
    return (
      <Section id={id} title={title}>
        <Body />
      </Section>
    );
  };

export const AdminOverviewPage = AdminOverview;
export const AdminWorkspacesPage = sectionPage('workspaces', 'Workspaces', AdminWorkspaces);
export const AdminPeoplePage = sectionPage('people', 'People', AdminPeople);
export const AdminJobsPage = AdminJobs;
export const AdminSettingsPage = sectionPage('settings', 'Settings in force', AdminSettings);
export const AdminAuditPage = sectionPage('audit', 'Audit log', AdminAudit);

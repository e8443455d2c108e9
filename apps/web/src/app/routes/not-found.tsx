import { Button, Center } from '@mantine/core';
import { IconMapSearch } from '@tabler/icons-react';
import { Link } from 'react-router';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { useMe } from '../../features/auth/api/use-me.ts';
import { pageRoutes } from '../../lib/page-routes.ts';
import { PersonalShell } from '../shell.tsx';
import { PageLoader } from '../../components/ui/page-loader.tsx';

export function NotFoundView({ what = 'page' }: { what?: string }) {
  return (
    <Center>
      <div>
        <EmptyState icon={<IconMapSearch size={32} />} title={`This ${what} does not exist`}>
          It may have been moved or deleted, or you may not have access to it.
        </EmptyState>
        <Center>
          <Button component={Link} to={pageRoutes.root()}>
            Go to your workspace
          </Button>
        </Center>
      </div>
    </Center>
  );
}

/** An address that is no page: in the signed-in frame (its bell, its navigation) for someone signed in, alone for anyone else. */
export function NotFoundPage() {
  const me = useMe();
  if (me.isPending) {
    return <PageLoader label="Loading" />;
  }
  if (me.data) {
    return (
      <PersonalShell>
        <NotFoundView />
      </PersonalShell>
    );
  }
  return (
    <main>
      <NotFoundView />
    </main>
  );
}

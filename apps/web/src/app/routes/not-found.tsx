import { Button, Center } from '@mantine/core';
import { IconMapSearch } from '@tabler/icons-react';
import { Link } from 'react-router';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { pageRoutes } from '../../lib/page-routes.ts';

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

export function NotFoundPage() {
  return (
    <main>
      <NotFoundView />
    </main>
  );
}

import { Alert } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';

/** What a part of the admin pages says when what it shows could not be read. */
export function AdminFailure({ error, what }: { error: Error | null; what: string }) {
  return (
    <Alert color="red" icon={<IconAlertCircle aria-hidden />} role="alert" title={`${what} could not be shown`}>
      {error?.message ?? 'Try again in a moment.'}
    </Alert>
  );
}

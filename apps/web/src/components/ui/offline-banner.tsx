import { Alert } from '@mantine/core';
import { useNetwork } from '@mantine/hooks';
import { IconWifiOff } from '@tabler/icons-react';

export function OfflineBanner() {
  const { online } = useNetwork();
  if (online) return null;
  return (
    <Alert color="yellow" icon={<IconWifiOff aria-hidden />} radius={0} py={6} mb="md" role="status">
      You are offline. Cabinet will catch up when the connection returns.
    </Alert>
  );
}

import { Center, Loader } from '@mantine/core';

/** What a whole page shows while what it needs loads: a spinner in its middle, named for screen readers. */
export function PageLoader({ label }: { label: string }) {
  return (
    <Center mih="100dvh">
      <Loader aria-label={label} />
    </Center>
  );
}

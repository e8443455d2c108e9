import { Alert, Box, Button, Center, Loader, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

export function ViewerLoading({ label }: { label: string }) {
  return (
    <Center h="100%" mih={240}>
      <Loader aria-label={label} />
    </Center>
  );
}

export function ViewerError({ error, onRetry }: { error: Error; onRetry?: () => void }) {
  return (
    <Center h="100%" mih={240} p="md">
      <Alert color="red" role="alert" title="This file could not be shown" maw={480}>
        {error.message}
        {onRetry && (
          <Button mt="sm" variant="light" color="red" onClick={onRetry} display="block">
            Try again
          </Button>
        )}
      </Alert>
    </Center>
  );
}

/**
 * A file converted on the server, on its way: the first view of a large workbook or document takes
 * a few seconds, so the page says what is happening over the shape of what is coming.
 */
export function PreviewPending({ name, className, children }: { name: string; className?: string; children: ReactNode }) {
  return (
    <Box className="viewer-page">
      <Stack gap="sm" aria-busy="true" aria-label={`Loading ${name}`} className={className}>
        <Text size="sm" c="dimmed" role="status">
          Preparing the preview of {name}…
        </Text>
        {children}
      </Stack>
    </Box>
  );
}

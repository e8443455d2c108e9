import { Alert, Button, Center, Loader } from '@mantine/core';

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

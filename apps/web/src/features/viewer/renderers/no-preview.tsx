import { Alert, Button, Stack, Text } from '@mantine/core';
import { IconDownload, IconFileOff } from '@tabler/icons-react';
import { ApiError } from '../../../lib/api-client.ts';
import { downloadUrl, isNoPreview } from './preview-api.ts';
import type { RendererProps } from '../renderer-props.ts';

/** What a renderer shows when the file cannot be shown: why, and its Download where the renderer can offer it; a passing failure offers Try again. */
export function PreviewFailure({ error, source, item, onRetry }: RendererProps & { error: unknown; onRetry: () => void }) {
  const href = downloadUrl(source);
  if (isNoPreview(error)) {
    const reason = (error as ApiError).details?.reason;
    return (
      <Alert color="gray" icon={<IconFileOff aria-hidden size={20} />} title={reason === 'too_large' ? 'Too large to show here' : 'No preview of this file'}>
        <Stack gap="sm" align="flex-start">
          <Text size="sm">{(error as ApiError).message}</Text>
          {href && (
            <Button component="a" href={href} size="xs" leftSection={<IconDownload aria-hidden size={16} />} aria-label={`Download ${item.name}`}>
              Download
            </Button>
          )}
        </Stack>
      </Alert>
    );
  }
  return (
    <Alert color="red" role="alert" title="The file could not be shown">
      <Stack gap="sm" align="flex-start">
        <Text size="sm">{error instanceof Error ? error.message : 'Something went wrong.'}</Text>
        <Button size="xs" variant="default" onClick={onRetry}>
          Try again
        </Button>
      </Stack>
    </Alert>
  );
}

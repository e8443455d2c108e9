import { Center, Stack, Text } from '@mantine/core';
import { IconMusic } from '@tabler/icons-react';
import { useState } from 'react';
import { ViewerError, ViewerLoading } from './viewer-states.tsx';
import type { RendererProps } from './types.ts';
import { useContentUrl } from './use-content-url.ts';

const unplayable = new Error('The browser cannot play this file. Download it to open it with another program.');

/**
 * A video, played by the browser from the signed URL: the storage answers Range, so it starts at
 * once and seeks without downloading the whole file. The browser's own controls are labelled.
 */
export function VideoRenderer({ item, source }: RendererProps) {
  const url = useContentUrl(source);
  const [failed, setFailed] = useState(false);
  if (url.error) return <ViewerError error={url.error} />;
  if (failed) return <ViewerError error={unplayable} />;
  if (!url.data) return <ViewerLoading label={`Loading ${item.name}`} />;
  return (
    <Center h="100%" p="md">
      <video
        src={url.data.url}
        controls
        preload="metadata"
        aria-label={`Video ${item.name}`}
        onError={() => setFailed(true)}
        style={{ maxWidth: '100%', maxHeight: '100%', background: 'black', borderRadius: 8 }}
      />
    </Center>
  );
}

/** An audio file, played by the browser from the signed URL (Range: it seeks without downloading it whole). */
export function AudioRenderer({ item, source }: RendererProps) {
  const url = useContentUrl(source);
  const [failed, setFailed] = useState(false);
  if (url.error) return <ViewerError error={url.error} />;
  if (failed) return <ViewerError error={unplayable} />;
  if (!url.data) return <ViewerLoading label={`Loading ${item.name}`} />;
  return (
    <Center h="100%" p="md">
      <Stack align="center" gap="md" w="100%" maw={560}>
        <IconMusic aria-hidden size={64} stroke={1.2} />
        <Text fw={500} ta="center" style={{ overflowWrap: 'anywhere' }}>
          {item.name}
        </Text>
        <audio src={url.data.url} controls preload="metadata" aria-label={`Audio ${item.name}`} onError={() => setFailed(true)} style={{ width: '100%' }} />
      </Stack>
    </Center>
  );
}

import { Center, Stack, Text } from '@mantine/core';
import { IconMusic } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { ViewerError, ViewerLoading } from './viewer-states.tsx';
import type { RendererProps } from './types.ts';
import { useContentUrl } from './use-content-url.ts';
import { thumbnailUrl } from '../viewer-source.ts';

const unplayable = new Error('The browser cannot play this file. Download it to open it with another program.');

/**
 * A file the browser plays from the signed URL: the storage answers Range, so it starts at once and
 * seeks without downloading the whole file. `player` draws the element, which calls `onError` when
 * the browser cannot play it.
 */
function Playable({ item, source, player }: RendererProps & { player: (src: string, onError: () => void) => ReactNode }) {
  const url = useContentUrl(source);
  const [failed, setFailed] = useState(false);
  if (url.error) return <ViewerError error={url.error} />;
  if (failed) return <ViewerError error={unplayable} />;
  if (!url.data) return <ViewerLoading label={`Loading ${item.name}`} />;
  return (
    <Center h="100%" p="md">
      {player(url.data.url, () => setFailed(true))}
    </Center>
  );
}

/** A video, with the browser's own controls, labelled; its poster is the frame Cabinet took of it, when there is one. */
export function VideoRenderer(props: RendererProps) {
  return (
    <Playable
      {...props}
      player={(src, onError) => (
        <video
          src={src}
          poster={props.item.preview?.state === 'ready' ? thumbnailUrl(props.source, 1024) : undefined}
          controls
          preload="metadata"
          aria-label={`Video ${props.item.name}`}
          onError={onError}
          style={{ maxWidth: '100%', maxHeight: '100%', background: 'black', borderRadius: 8 }}
        />
      )}
    />
  );
}

/** An audio file, under its name. */
export function AudioRenderer(props: RendererProps) {
  return (
    <Playable
      {...props}
      player={(src, onError) => (
        <Stack align="center" gap="md" w="100%" maw={560}>
          <IconMusic aria-hidden size={64} stroke={1.2} />
          <Text fw={500} ta="center" style={{ overflowWrap: 'anywhere' }}>
            {props.item.name}
          </Text>
          <audio src={src} controls preload="metadata" aria-label={`Audio ${props.item.name}`} onError={onError} style={{ width: '100%' }} />
        </Stack>
      )}
    />
  );
}

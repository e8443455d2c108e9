import { Alert, Box, Button, Center, Loader, Stack, Text } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { thumbnailUrl } from '../viewer-source.ts';
import type { RendererProps } from './types.ts';

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

/** Points on a common page's longer side (Letter, A4 is 842): the picture of page 1 is laid out as the page will be. */
const PAGE_POINTS = 792;

/**
 * A PDF's first page as the picture Cabinet made of it (ADR 0040), shown while pdf.js and the
 * ranges it reads arrive: a large PDF's first page is seen at once, then drawn over by the page
 * itself with its text. Laid out as the page will be (fitted to the width, at most 150%), in a box
 * of the pages' padding. Null without a picture.
 */
export function PagePicture({ item, source }: RendererProps) {
  const [loaded, setLoaded] = useState(false);
  // Not there after all (evicted, being made again): nothing rather than a broken picture.
  const [failed, setFailed] = useState(false);
  const p = pictureOf(item);
  if (!p || failed) return null;
  const widest = Math.round(1.5 * PAGE_POINTS * (p.width / Math.max(p.width, p.height)));
  return (
    <img
      data-page-picture="1"
      data-drawn={loaded || undefined}
      src={thumbnailUrl(source, 1024, p.v)}
      alt={`Page 1 of ${item.name}`}
      onLoad={() => setLoaded(true)}
      onError={() => setFailed(true)}
      // Styled here, not by the PDF viewer's stylesheet: this shows before that is loaded.
      style={{
        display: 'block',
        margin: '0 auto',
        background: 'white',
        boxShadow: '0 1px 4px rgb(0 0 0 / 0.3)',
        width: `min(100%, ${widest}px)`,
        aspectRatio: `${p.width} / ${p.height}`,
      }}
    />
  );
}

/** The picture Cabinet made of the file, when there is one, with its size. */
export const pictureOf = (item: RendererProps['item']) => {
  const p = item.preview;
  return p?.state === 'ready' && p.width && p.height ? { v: p.v, width: p.width, height: p.height } : null;
};

/** While the PDF viewer's code loads: page 1's picture where the pages will be, or the spinner. */
export function FirstPagePicture(props: RendererProps) {
  if (!pictureOf(props.item)) return <ViewerLoading label={`Loading ${props.item.name}`} />;
  return (
    <Box
      h="100%"
      p={16}
      aria-busy="true"
      aria-label={`Loading ${props.item.name}`}
      style={{ overflow: 'auto', background: 'var(--mantine-color-default-hover)' }}
    >
      <PagePicture {...props} />
    </Box>
  );
}

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
 * itself with its text. Laid out as the page will be (fitted to the width, at most 150%). Without
 * a picture, the spinner.
 */
export function FirstPagePicture({ item, source }: RendererProps) {
  const [loaded, setLoaded] = useState(false);
  const p = item.preview;
  if (p?.state !== 'ready' || !p.width || !p.height) return <ViewerLoading label={`Loading ${item.name}`} />;
  const widest = Math.round(1.5 * PAGE_POINTS * (p.width / Math.max(p.width, p.height)));
  return (
    // Styled here, not by the PDF viewer's stylesheet: this shows before that is loaded.
    <Box h="100%" p={16} aria-busy="true" aria-label={`Loading ${item.name}`} style={{ overflow: 'auto', background: 'var(--mantine-color-default-hover)' }}>
      <img
        data-page-picture="1"
        data-drawn={loaded || undefined}
        src={thumbnailUrl(source, 1024, p.v)}
        alt={`Page 1 of ${item.name}`}
        onLoad={() => setLoaded(true)}
        style={{
          display: 'block',
          margin: '0 auto',
          background: 'white',
          boxShadow: '0 1px 4px rgb(0 0 0 / 0.3)',
          width: `min(100%, ${widest}px)`,
          aspectRatio: `${p.width} / ${p.height}`,
        }}
      />
    </Box>
  );
}

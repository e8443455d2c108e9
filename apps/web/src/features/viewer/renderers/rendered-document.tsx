import { Alert, Box, Skeleton, Stack } from '@mantine/core';
import { PreviewPending } from './viewer-states.tsx';
import { PREVIEW_PICTURE_SRC, type TPreviewHtml } from '@cabinet/contracts';
import { useQuery } from '@tanstack/react-query';
import DOMPurify from 'dompurify';
import { useMemo } from 'react';
import { queryKeys } from '../../../lib/query-keys.ts';
import '../../documents/components/document-editor.css';
import type { RendererProps } from './types.ts';
import { PreviewFailure } from './preview-failure.tsx';
import { getPreview, previewUrl, retryPreview } from './preview-api.ts';
import './renderers.css';

/** The elements and attributes a converted document may hold: the server writes no others (ADR 0039); this is the second lock. */
const ALLOWED_TAGS = [
  'p',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'strong',
  'em',
  's',
  'u',
  'code',
  'pre',
  'blockquote',
  'ul',
  'ol',
  'li',
  'hr',
  'br',
  'a',
  'table',
  'colgroup',
  'col',
  'tbody',
  'thead',
  'tr',
  'th',
  'td',
  'span',
  'label',
  'input',
  'div',
  'img',
];
const ALLOWED_ATTR = ['href', 'colspan', 'rowspan', 'start', 'data-type', 'data-checked', 'class', 'type', 'checked', 'disabled', 'src', 'alt'];

let purifier: ReturnType<typeof DOMPurify> | undefined;
/**
 * A DOMPurify of its own: links only to the web and mail, each opening in a new tab without telling
 * it where from; pictures only as the WebP data the server wrote (never an address to fetch, nor
 * another kind of data such as SVG).
 */
function purify(html: string): string {
  if (!purifier) {
    purifier = DOMPurify(window);
    purifier.addHook('uponSanitizeAttribute', (node, data) => {
      if (data.attrName === 'src' && !(node.tagName === 'IMG' && PREVIEW_PICTURE_SRC.test(data.attrValue))) data.keepAttr = false;
    });
    purifier.addHook('afterSanitizeAttributes', (node) => {
      if (node.tagName === 'A') {
        if (node.hasAttribute('href')) {
          node.setAttribute('target', '_blank');
          node.setAttribute('rel', 'noopener noreferrer');
        }
      }
      if (node.tagName === 'INPUT') node.setAttribute('disabled', '');
      // A picture without its data would show a broken image: it goes.
      if (node.tagName === 'IMG' && !node.hasAttribute('src')) node.remove();
    });
  }
  return purifier.sanitize(html, {
    ALLOWED_TAGS,
    ALLOWED_ATTR,
    ALLOWED_URI_REGEXP: /^(?:https?:|mailto:)/i,
    ALLOW_DATA_ATTR: false,
    FORBID_ATTR: ['style'],
  });
}

/**
 * A document file (DOCX, ODT, Markdown) converted on the server, in a readable column with the
 * document page's typography (pictures no wider than the column), on a page of its own that scrolls. The HTML holds only a
 * document's elements (the server writes it from an allowlist) and is sanitized again here
 * before it is put in the page.
 */
export function RenderedDocument({ item, source }: RendererProps) {
  const url = previewUrl(source, 'preview/html');
  const preview = useQuery({
    queryKey: queryKeys.preview(url),
    queryFn: ({ signal }) => getPreview<TPreviewHtml>(url, signal),
    staleTime: 5 * 60_000,
    refetchOnWindowFocus: false,
    retry: retryPreview,
  });
  const html = useMemo(() => (preview.data ? purify(preview.data.html) : ''), [preview.data]);

  if (preview.isPending) {
    return (
      <PreviewPending name={item.name} className="rendered-document">
        <Skeleton h={28} w="60%" />
        <Skeleton h={14} />
        <Skeleton h={14} />
        <Skeleton h={14} w="80%" />
      </PreviewPending>
    );
  }
  if (preview.isError) return <PreviewFailure error={preview.error} item={item} source={source} onRetry={() => void preview.refetch()} />;
  // The whole width scrolls (the wheel works beside the column too); the keyboard reaches it as the file's contents.
  return (
    <Box className="viewer-page" tabIndex={0} role="region" aria-label={`Contents of ${item.name}`}>
      <Stack gap="sm" className="rendered-document">
        {preview.data.truncated && (
          <Alert color="yellow" variant="light" title="Not all of this document is shown">
            This document is longer, or has more pictures, than a preview holds. Download it to see all of it.
          </Alert>
        )}
        <Box
          component="article"
          className="cabinet-document rendered-document-body"
          // The server's HTML, written from an allowlist and sanitized again just above.
          dangerouslySetInnerHTML={{ __html: html }}
        />
      </Stack>
    </Box>
  );
}

import { ActionIcon, Box, Tooltip } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import type { TPublicItem } from '@cabinet/contracts';
import { useEffect, useMemo } from 'react';
import { ColorSchemeControl } from '../../../components/ui/color-scheme-control.tsx';
import { usePublicItem } from '../../links/api/use-links.ts';
import { linkSource } from '../viewer-source.ts';
import { ViewerBody } from './viewer-body.tsx';
import { ViewerFrame } from './viewer-frame.tsx';

/**
 * A file under a public link, in the viewer: no workspace actions, Download when the link allows
 * it; a file in a shared folder steps through the folder's other files and goes back to it.
 */
export function PublicFileViewer(props: {
  token: string;
  item: TPublicItem;
  /** The folder the file is in, when the link shares a folder (else the link is this file alone). */
  folderId: string | undefined;
  downloadAllowed: boolean;
  /** Shows another item of the link; `replace`: in place of this one in the history (stepping through files). */
  open: (id: string, replace?: boolean) => void;
}) {
  const { token, item, folderId, downloadAllowed, open } = props;
  const folder = usePublicItem(token, folderId);
  const files = (folder.shown?.children ?? []).filter((i) => i.kind === 'file');
  const index = files.findIndex((f) => f.id === item.id);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = folder;
  useEffect(() => {
    if (index >= 0 && index === files.length - 1 && hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [index, files.length, hasNextPage, isFetchingNextPage, fetchNextPage]);
  const source = useMemo(() => linkSource(token, item.id, downloadAllowed), [token, item.id, downloadAllowed]);
  const neighbour = (f: TPublicItem | undefined) => f && { name: f.name, go: () => open(f.id, true) };
  return (
    <ViewerFrame
      name={item.name}
      onClose={folderId ? () => open(folderId) : undefined}
      closeLabel="Back to the folder"
      previous={index > 0 ? neighbour(files[index - 1]) : undefined}
      next={index >= 0 ? neighbour(files[index + 1]) : undefined}
      position={index >= 0 ? { at: index + 1, of: files.length, more: hasNextPage } : undefined}
      actions={
        <>
          {source.downloadUrl && (
            <Tooltip label="Download">
              <ActionIcon component="a" href={source.downloadUrl} variant="subtle" color="gray" size="lg" aria-label="Download">
                <IconDownload aria-hidden size={18} />
              </ActionIcon>
            </Tooltip>
          )}
          <Box visibleFrom="sm">
            <ColorSchemeControl />
          </Box>
        </>
      }
    >
      <ViewerBody key={item.id} item={item} source={source} />
    </ViewerFrame>
  );
}

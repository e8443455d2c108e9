import {
  Alert,
  Anchor,
  Breadcrumbs,
  Button,
  Container,
  Group,
  Menu,
  Paper,
  PasswordInput,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { IconChevronDown, IconClockX, IconDownload, IconFileTypePdf, IconLock, IconMarkdown, IconUnlink } from '@tabler/icons-react';
import type { TPublicItem } from '@cabinet/contracts';
import { useEffect, useState, type ReactNode } from 'react';
import { PublicFileViewer } from '../../features/viewer/components/public-file-viewer.tsx';
import { useParams, useSearchParams } from 'react-router';
import { ColorSchemeControl } from '../../components/ui/color-scheme-control.tsx';
import { Logo } from '../../components/ui/logo.tsx';
import { FileRequestPage } from '../../features/links/components/file-request-page.tsx';
import {
  publicContentUrl,
  publicExportUrl,
  publicThumbnailUrl,
  usePublicDocument,
  usePublicItem,
  usePublicLink,
  useUnlockLink,
} from '../../features/links/api/use-links.ts';
import { ItemIcon } from '../../features/items/components/item-icon.tsx';
import { ItemThumbnail } from '../../features/items/components/item-thumbnail.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { formatBytes, formatDate } from '../../lib/format.ts';
import { PageLoader } from '../../components/ui/page-loader.tsx';

// Documents and sheets converted on the server (ADR 0039), loaded only when a link shows one.

function Frame({ children, wide = false }: { children: ReactNode; wide?: boolean }) {
  return (
    <Container size={wide ? 'lg' : 'xs'} py="lg" px="md" component="main">
      <Stack gap="lg">
        <Group justify="space-between">
          <Logo />
          <ColorSchemeControl />
        </Group>
        <Paper withBorder radius="lg" p={{ base: 'md', xs: 'xl' }} shadow="sm">
          <Stack gap="md">{children}</Stack>
        </Paper>
      </Stack>
    </Container>
  );
}

/** `/s/:token`: a public link's page for anyone holding it, with no account — its password first when it has one. */
export function PublicLinkPage() {
  const { token = '' } = useParams();
  const link = usePublicLink(token);
  useEffect(() => {
    document.title = link.data ? `${link.data.item.name} · Cabinet` : 'Shared with you · Cabinet';
  }, [link.data]);

  if (link.isPending) {
    return <PageLoader label="Opening the link" />;
  }
  if (link.error) {
    const code = link.error instanceof ApiError ? link.error.code : 'internal';
    if (code === 'link_password_required') return <PasswordPrompt token={token} />;
    if (code === 'link_expired') {
      const revoked = link.error instanceof ApiError && link.error.details?.reason === 'revoked';
      return (
        <Frame>
          <IconClockX aria-hidden size={40} />
          <Title order={1} fz="h2">
            This link has ended
          </Title>
          <Text>{revoked ? 'The person who shared it turned it off.' : 'It has expired.'} Ask them for a new link if you still need it.</Text>
        </Frame>
      );
    }
    const missing = code === 'not_found' || code === 'invalid_input';
    return (
      <Frame>
        <IconUnlink aria-hidden size={40} />
        <Title order={1} fz="h2">
          {missing ? 'This link does not work' : 'The link could not be opened'}
        </Title>
        <Text c="dimmed">{missing ? 'It may have been copied incompletely, or what it shared is no longer there.' : link.error.message}</Text>
        {!missing && <Button onClick={() => void link.refetch()}>Try again</Button>}
      </Frame>
    );
  }
  if (link.data.kind === 'file_request') {
    return (
      <Frame>
        <FileRequestPage token={token} link={link.data} />
      </Frame>
    );
  }
  return <Shared token={token} rootId={link.data.item.id} downloadAllowed={link.data.downloadAllowed} expiresAt={link.data.expiresAt} />;
}

function PasswordPrompt({ token }: { token: string }) {
  const [password, setPassword] = useState('');
  const unlock = useUnlockLink(token);
  const error = unlock.error instanceof ApiError ? unlock.error : undefined;
  const wait = error?.code === 'rate_limited' ? Number(error.details?.retryAfter) || 60 : 0;
  return (
    <Frame>
      <IconLock aria-hidden size={40} />
      <Title order={1} fz="h2">
        This link is protected
      </Title>
      <Text>Enter the password you were given with the link.</Text>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (password) unlock.mutate(password);
        }}
      >
        <Stack gap="sm">
          {error && (
            <Alert color="red" role="alert">
              {error.code === 'link_password_required'
                ? 'That password is not right. Check it and try again.'
                : error.code === 'rate_limited'
                  ? `Too many wrong passwords from here. Try again in ${Math.ceil(wait / 60)} minute${wait > 60 ? 's' : ''}.`
                  : error.message}
            </Alert>
          )}
          <PasswordInput label="Password" value={password} onChange={(e) => setPassword(e.currentTarget.value)} autoComplete="off" autoFocus required />
          <Button type="submit" loading={unlock.isPending}>
            Open
          </Button>
        </Stack>
      </form>
    </Frame>
  );
}

/** What the link opens: a file, a document, or a folder to walk through (the item shown is in the address, `?item=`). */
function Shared({ token, rootId, downloadAllowed, expiresAt }: { token: string; rootId: string; downloadAllowed: boolean; expiresAt: string | null }) {
  const [search, setSearch] = useSearchParams();
  const currentId = search.get('item') ?? rootId;
  const current = usePublicItem(token, currentId);
  const open = (id: string, replace = false) => setSearch(id === rootId ? {} : { item: id }, { replace });

  if (current.isPending) {
    return (
      <Frame wide>
        <Skeleton h={160} />
      </Frame>
    );
  }
  if (current.error) {
    return (
      <Frame wide>
        <Title order={1} fz="h2">
          This item is not here
        </Title>
        <Text c="dimmed">{current.error.message}</Text>
        <Button variant="light" onClick={() => open(rootId)}>
          Back to what was shared
        </Button>
      </Frame>
    );
  }
  const { item, trail, children } = current.shown!;
  if (item.kind === 'file') {
    // A file in the viewer: in a shared folder, with the folder's other files before and after it.
    const folderId = trail.length > 1 ? trail[trail.length - 2]!.id : undefined;
    return <PublicFileViewer token={token} item={item} folderId={folderId} downloadAllowed={downloadAllowed} open={open} />;
  }
  return (
    <Frame wide>
      {trail.length > 1 && (
        <Breadcrumbs separator="/" aria-label="Folders">
          {trail.map((f, i) =>
            i === trail.length - 1 ? (
              <Text key={f.id} size="sm" aria-current="page">
                {f.name}
              </Text>
            ) : (
              <Anchor key={f.id} component="button" type="button" size="sm" onClick={() => open(f.id)}>
                {f.name}
              </Anchor>
            ),
          )}
        </Breadcrumbs>
      )}
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Group gap="sm" wrap="nowrap" miw={0}>
          <ItemIcon item={item} size={24} />
          <Title order={1} fz="h3" style={{ overflowWrap: 'anywhere' }}>
            {item.name}
          </Title>
        </Group>
        {downloadAllowed && item.kind === 'folder' && (
          <Button component="a" href={publicContentUrl(token, item.id, true)} leftSection={<IconDownload aria-hidden size={18} />}>
            Download all (zip)
          </Button>
        )}
        {downloadAllowed && item.kind === 'document' && <DocumentDownloadMenu token={token} item={item} />}
      </Group>
      <Text size="sm" c="dimmed">
        {item.kind === 'folder' ? `${children.length}${current.hasNextPage ? '+' : ''} item${children.length === 1 && !current.hasNextPage ? '' : 's'} · ` : ''}
        updated {formatDate(item.updatedAt)}
        {expiresAt ? ` · link expires ${formatDate(expiresAt)}` : ''}
        {downloadAllowed ? '' : ' · downloads are turned off for this link'}
      </Text>
      {item.kind === 'folder' && <FolderListing token={token} items={children} onOpen={open} />}
      {item.kind === 'folder' && current.hasNextPage && (
        <Group justify="center">
          <Button variant="default" loading={current.isFetchingNextPage} onClick={() => void current.fetchNextPage()}>
            Show more
          </Button>
        </Group>
      )}
      {item.kind === 'document' && <DocumentView token={token} item={item} />}
    </Frame>
  );
}

/** A folder's contents: each file with its thumbnail (over its placeholder) where it has one, else its kind's icon. */
function FolderListing({ token, items, onOpen }: { token: string; items: TPublicItem[]; onOpen: (id: string) => void }) {
  if (items.length === 0) {
    return (
      <Text c="dimmed" ta="center" py="lg">
        This folder is empty.
      </Text>
    );
  }
  return (
    <Table.ScrollContainer minWidth={300}>
      <Table verticalSpacing="xs" highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th visibleFrom="xs">Size</Table.Th>
            <Table.Th visibleFrom="sm">Updated</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((i) => (
            <Table.Tr key={i.id}>
              <Table.Td>
                <UnstyledButton onClick={() => onOpen(i.id)} aria-label={`Open ${i.name}`}>
                  <Group gap="xs" wrap="nowrap">
                    <ItemThumbnail
                      item={i}
                      size="256"
                      width={24}
                      height={24}
                      decorative
                      address={(file, size, v) => publicThumbnailUrl(token, file.id, size, v)}
                      fallback={<ItemIcon item={i} size={24} />}
                    />
                    <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                      {i.name}
                    </Text>
                  </Group>
                </UnstyledButton>
              </Table.Td>
              <Table.Td visibleFrom="xs">
                <Text size="sm" c="dimmed">
                  {i.kind === 'file' ? formatBytes(i.size) : '—'}
                </Text>
              </Table.Td>
              <Table.Td visibleFrom="sm">
                <Text size="sm" c="dimmed">
                  {formatDate(i.updatedAt)}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** A document's download, as a member exports it: Markdown or PDF. Shown only when the link allows downloads. */
function DocumentDownloadMenu({ token, item }: { token: string; item: TPublicItem }) {
  const icon = { 'aria-hidden': true, size: 16 } as const;
  return (
    <Menu position="bottom-end">
      <Menu.Target>
        <Button leftSection={<IconDownload aria-hidden size={18} />} rightSection={<IconChevronDown aria-hidden size={16} />}>
          Download
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item component="a" href={publicExportUrl(token, item.id, 'markdown')} download leftSection={<IconMarkdown {...icon} />}>
          Markdown (.md)
        </Menu.Item>
        <Menu.Item component="a" href={publicExportUrl(token, item.id, 'pdf')} download leftSection={<IconFileTypePdf {...icon} />}>
          PDF (.pdf)
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

/**
 * A document, read-only: its HTML export, in a frame sandboxed with no permissions at all — no
 * script runs in it, it cannot navigate the page, and it has an origin of its own.
 */
function DocumentView({ token, item }: { token: string; item: TPublicItem }) {
  const doc = usePublicDocument(token, item.id, true);
  if (doc.isPending) return <Skeleton h={300} />;
  if (doc.error) {
    return (
      <Alert color="red" role="alert" title="The document could not be shown">
        {doc.error.message}
      </Alert>
    );
  }
  return (
    <iframe
      title={`Document ${item.name}`}
      sandbox=""
      srcDoc={doc.data.html}
      style={{
        width: '100%',
        minHeight: '70vh',
        border: '1px solid var(--mantine-color-default-border)',
        borderRadius: 8,
        background: 'white',
        colorScheme: 'light',
      }}
    />
  );
}

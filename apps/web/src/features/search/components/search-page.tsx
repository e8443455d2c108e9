import { Alert, Anchor, Box, Button, CloseButton, Group, Loader, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { IconAlertCircle, IconFilterOff, IconFolder, IconSearch, IconZoomQuestion } from '@tabler/icons-react';
import type { TSearchResult, TSearchType, TWorkspace } from '@cabinet/contracts';
import { useEffect, useMemo, useRef, useState } from 'react';
import { rememberReturn } from '../../../lib/viewer-return.ts';
import { Link, useSearchParams } from 'react-router';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { formatRelative } from '../../../lib/format.ts';
import { useMe } from '../../auth/api/use-me.ts';
import { useItem } from '../../items/api/use-items.ts';
import { ItemIcon } from '../../items/components/item-icon.tsx';
import { folderTitle, useItemLinks } from '../../items/hooks/use-item-links.ts';
import { PersonPicker } from '../../team/components/person-picker.tsx';
import { usePeopleNames, useSearch } from '../api/use-search.ts';
import { onlySimilar, placeOf } from '../place.ts';
import {
  filtersFromParams,
  hasFilters,
  isEmptySearch,
  MODIFIED_LABELS,
  NO_FILTERS,
  searchQueryOf,
  TYPE_LABELS,
  type Modified,
  type SearchFilters,
  withFilters,
} from '../search-filters.ts';
import { Highlighted } from './highlighted.tsx';
import { HEARD_ONLY } from './status-style.ts';

const TYPE_OPTIONS = [{ value: 'any', label: 'Any type' }, ...Object.entries(TYPE_LABELS).map(([value, label]) => ({ value, label }))];
const MODIFIED_OPTIONS = Object.entries(MODIFIED_LABELS).map(([value, label]) => ({ value, label }));

function ResultRow({ result, workspace, owner }: { result: TSearchResult; workspace: TWorkspace; owner: string | undefined }) {
  const { item, matches, snippet } = result;
  const linkTo = useItemLinks(workspace);
  const to = linkTo(item);
  const place = placeOf(result, workspace);
  const name = <Highlighted text={item.name} matches={matches} field="name" />;
  const nameProps = { fw: 500, underline: 'hover', c: 'var(--mantine-color-text)', style: { overflowWrap: 'anywhere' } } as const;
  return (
    <Group component="li" wrap="nowrap" align="flex-start" gap="sm" py="sm" style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}>
      <Box mt={2} c={item.kind === 'folder' ? 'var(--mantine-primary-color-filled)' : undefined} style={{ display: 'flex' }}>
        <ItemIcon item={item} size={22} />
      </Box>
      <Stack gap={2} miw={0} style={{ flex: 1 }}>
        <Anchor
          component={Link}
          to={to}
          {...nameProps}
          // A file opens in the viewer; Escape there comes back to these results.
          {...(item.kind === 'file' ? { state: { viewerFrom: window.location.pathname + window.location.search }, onClick: () => rememberReturn() } : {})}
        >
          {name}
        </Anchor>
        {snippet && (
          <Text size="sm" c="dimmed" lineClamp={3} style={{ overflowWrap: 'anywhere' }}>
            <Highlighted text={snippet} matches={matches} field="snippet" />
          </Text>
        )}
        <Text size="xs" c="dimmed">
          {place && result.parent && (
            <>
              In{' '}
              <Anchor component={Link} to={linkTo({ id: result.parent.id, kind: 'folder' })!} size="xs" c="dimmed">
                {place}
              </Anchor>
              {' · '}
            </>
          )}
          Modified <time dateTime={item.updatedAt}>{formatRelative(item.updatedAt)}</time>
          {owner && ` · Owned by ${owner}`}
        </Text>
      </Stack>
    </Group>
  );
}

/** The chip of "Search in this folder": which folder, and a way back to the whole workspace. */
function FolderChip({ folderId, workspace, onRemove }: { folderId: string; workspace: TWorkspace; onRemove: () => void }) {
  const folder = useItem(folderId);
  const name = folder.data ? folderTitle(folder.data, workspace) : folder.isError ? 'a folder you cannot open' : '…';
  return (
    <Group
      gap={6}
      wrap="nowrap"
      pl={10}
      pr={2}
      py={2}
      maw="100%"
      style={{ display: 'inline-flex', border: '1px solid var(--mantine-color-default-border)', borderRadius: 999, background: 'var(--mantine-color-default)' }}
    >
      <IconFolder aria-hidden size={16} style={{ flexShrink: 0 }} />
      <Text size="sm" truncate="end">
        In “{name}”
      </Text>
      <CloseButton size="sm" radius="xl" aria-label={`Search everywhere, not only in ${name}`} onClick={onRemove} />
    </Group>
  );
}

/**
 * `/w/:ws/search`: words and filters (type, owner, modified, folder), all kept in the address, so
 * back, forward and reload show the same search; results with the words found marked, where each
 * is, when it changed and whose it is, more as the list scrolls (or on "Load more").
 */
export function SearchPage({ workspace }: { workspace: TWorkspace }) {
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => filtersFromParams(params), [params]);
  const query = useMemo(() => searchQueryOf(filters), [filters]);
  const search = useSearch(workspace.id, query);
  const me = useMe().data?.user.id;
  // Owners are named and chosen only by whoever may see the workspace's people (not a guest).
  const seesPeople = workspace.abilities.seeMembers;
  const people = usePeopleNames(workspace.id, seesPeople && !!search.results?.some((r) => r.item.ownerId !== me)).data;
  const filtered = hasFilters(filters);

  /** A filter changed: a new entry in the history, so Back returns to the search before it. */
  const change = (next: Partial<SearchFilters>, o: { replace?: boolean } = {}) => setParams((prev) => withFilters(prev, next), { replace: !!o.replace });
  // The words as typed; the address follows when typing pauses (replacing its entry: Back does not walk back letter by letter).
  const [draft, setDraft] = useState(filters.q);
  // The words last put in the address from the field: the address's words differ from them only
  // when it changed otherwise (back, forward, a link), and then the field shows the address's.
  const sent = useRef(filters.q);
  const sendWords = useDebouncedCallback((q: string) => {
    sent.current = q;
    change({ q }, { replace: true });
  }, 250);
  useEffect(() => {
    if (filters.q === sent.current) return;
    sent.current = filters.q;
    setDraft(filters.q);
  }, [filters.q]);
  const clearFilters = () => change({ ...NO_FILTERS, q: filters.q });

  // Near the end of the list, the next page is fetched.
  const sentinel = useRef<HTMLDivElement>(null);
  const { hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage } = search;
  useEffect(() => {
    const el = sentinel.current;
    // After a page failed to load, the next try is the person's ("Load more"), not the observer's at once.
    if (!el || !hasNextPage || isFetchNextPageError) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting) && !isFetchingNextPage) void fetchNextPage();
      },
      { rootMargin: '400px 0px' },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage]);

  useEffect(() => {
    document.title = filters.q ? `${filters.q} · Search · Cabinet` : 'Search · Cabinet';
    return () => {
      document.title = 'Cabinet';
    };
  }, [filters.q]);

  const results = search.results ?? [];
  const similar = onlySimilar(results);
  const ownerOf = (r: TSearchResult) => (r.item.ownerId === me ? 'you' : people?.get(r.item.ownerId));

  let body;
  if (isEmptySearch(query)) {
    body = (
      <EmptyState icon={<IconSearch size={32} />} title="Search this workspace">
        Search by name or by words inside documents and files. Use quotes for a phrase, -word to leave a word out.
      </EmptyState>
    );
  } else if (search.isError && !search.data) {
    body = (
      <Alert color="red" icon={<IconAlertCircle aria-hidden />} role="alert" title="Search did not work">
        <Stack gap="sm" align="flex-start">
          <Text size="sm">{search.error.message}</Text>
          <Button size="xs" variant="default" onClick={() => void search.refetch()}>
            Try again
          </Button>
        </Stack>
      </Alert>
    );
  } else if (search.isPending) {
    body = (
      <Group justify="center" py="xl">
        <Loader aria-label="Searching" />
      </Group>
    );
  } else if (results.length === 0) {
    body = (
      <div>
        <EmptyState icon={<IconZoomQuestion size={32} />} title={filters.q ? `No results for “${filters.q}”` : 'Nothing matches these filters'}>
          {filters.q ? 'Check the spelling, or try fewer or other words' : 'Try other filters'}
          {filtered ? (filters.q ? ', or remove some filters.' : ', or remove some of them.') : '.'}
        </EmptyState>
        {filtered && (
          <Group justify="center">
            <Button variant="default" leftSection={<IconFilterOff aria-hidden size={16} />} onClick={clearFilters}>
              Clear filters
            </Button>
          </Group>
        )}
      </div>
    );
  } else {
    body = (
      <div aria-busy={search.isPlaceholderData} style={{ opacity: search.isPlaceholderData ? 0.6 : 1, transition: 'opacity 120ms' }}>
        {similar && (
          <Text size="sm" mb="xs">
            No exact matches. Names like what you typed:
          </Text>
        )}
        <Stack component="ul" gap={0} p={0} m={0} style={{ listStyle: 'none' }} aria-label="Search results">
          {results.map((r) => (
            <ResultRow key={r.item.id} result={r} workspace={workspace} owner={ownerOf(r)} />
          ))}
        </Stack>
        <div ref={sentinel} />
        {hasNextPage && (
          <Group justify="center" mt="md">
            <Button variant="default" loading={isFetchingNextPage} onClick={() => void fetchNextPage()}>
              Load more
            </Button>
          </Group>
        )}
        {search.isFetchNextPageError && (
          <Text size="sm" c="red" role="alert" ta="center" mt="xs">
            More results could not be loaded. Try again.
          </Text>
        )}
      </div>
    );
  }

  const settled = !!search.data && !search.isPlaceholderData && !isEmptySearch(query);
  const count = !settled
    ? ''
    : results.length > 0
      ? `${results.length}${hasNextPage ? '+' : ''} ${results.length === 1 ? 'result' : 'results'}`
      : filters.q
        ? `No results for “${filters.q}”`
        : 'Nothing matches these filters';
  return (
    <Stack gap="md" maw={960}>
      <Title order={1} fz="h2">
        Search
      </Title>
      <Box
        component="form"
        role="search"
        aria-label="Search this workspace"
        onSubmit={(e) => {
          e.preventDefault();
          sendWords.flush();
        }}
      >
        <Stack gap="sm">
          <TextInput
            type="search"
            size="md"
            aria-label="Search"
            placeholder="Names, or words inside documents and files"
            leftSection={<IconSearch aria-hidden size={18} />}
            value={draft}
            onChange={(e) => {
              setDraft(e.currentTarget.value);
              sendWords(e.currentTarget.value.trim());
            }}
            autoComplete="off"
            // Opened from the header or a folder, the field is where the person goes on typing.
            autoFocus={!filters.q}
          />
          <SimpleGrid cols={{ base: 2, md: seesPeople ? 4 : 3 }} spacing="sm" verticalSpacing="xs">
            <Select
              label="Type"
              data={TYPE_OPTIONS}
              value={filters.type ?? 'any'}
              onChange={(v) => change({ type: !v || v === 'any' ? null : (v as TSearchType) })}
              allowDeselect={false}
              comboboxProps={{ withinPortal: true }}
            />
            {seesPeople && (
              <PersonPicker
                ws={workspace.id}
                label="Owner"
                placeholder="Anyone"
                clearable
                value={filters.owner ? { value: filters.owner.id, label: filters.owner.name || 'The person chosen' } : null}
                onChange={(p) => change({ owner: p ? { id: p.value, name: p.label } : null })}
              />
            )}
            <Select
              label="Modified"
              data={MODIFIED_OPTIONS}
              value={filters.modified}
              onChange={(v) => change({ modified: (v ?? 'any') as Modified, from: '', to: '' })}
              allowDeselect={false}
              comboboxProps={{ withinPortal: true }}
            />
          </SimpleGrid>
          {filters.modified === 'custom' && (
            <SimpleGrid cols={{ base: 2, md: 4 }} spacing="sm">
              <TextInput
                label="Modified from"
                type="date"
                value={filters.from}
                max={filters.to || undefined}
                onChange={(e) => change({ from: e.currentTarget.value }, { replace: true })}
              />
              <TextInput
                label="Modified until"
                type="date"
                value={filters.to}
                min={filters.from || undefined}
                onChange={(e) => change({ to: e.currentTarget.value }, { replace: true })}
                error={filters.from && filters.to && filters.to < filters.from ? 'The end is before the start' : undefined}
              />
            </SimpleGrid>
          )}
          {(filters.folderId || filtered) && (
            <Group gap="xs" justify="space-between">
              {filters.folderId ? <FolderChip folderId={filters.folderId} workspace={workspace} onRemove={() => change({ folderId: null })} /> : <span />}
              {filtered && (
                <Button variant="subtle" size="xs" leftSection={<IconFilterOff aria-hidden size={16} />} onClick={clearFilters}>
                  Clear filters
                </Button>
              )}
            </Group>
          )}
        </Stack>
      </Box>
      {/* The count; with none, what the empty state's heading says, to a screen reader. */}
      <Text size="sm" c="dimmed" role="status" style={settled && results.length === 0 ? HEARD_ONLY : undefined}>
        {count}
      </Text>
      {body}
    </Stack>
  );
}

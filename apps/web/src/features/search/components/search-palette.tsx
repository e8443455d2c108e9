import { Group, Kbd, Loader, Modal, Text, TextInput, VisuallyHidden } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconArrowRight, IconSearch } from '@tabler/icons-react';
import type { TItem, TSearchResult, TWorkspace } from '@cabinet/contracts';
import { useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useMatch, useNavigate } from 'react-router';
import { useItem, useRecent } from '../../items/api/use-items.ts';
import { rememberReturn } from '../../../lib/viewer-return.ts';
import { ItemIcon } from '../../items/components/item-icon.tsx';
import { folderTitle, useItemLinks } from '../../items/hooks/use-item-links.ts';
import { useQuickActions, type QuickAction } from '../../items/components/quick-actions.tsx';
import { useQuickSearch } from '../api/use-search.ts';
import { onlySimilar, placeOf } from '../place.ts';
import { searchPageUrl } from '../search-filters.ts';
import { Highlighted } from './highlighted.tsx';
import { HEARD_ONLY } from './status-style.ts';
import { pagePatterns, pageRoutes } from '../../../lib/page-routes.ts';

/** How many recent items the palette offers before anything is typed. */
const RECENT = 6;
const DEBOUNCE_MS = 120;

interface Option {
  key: string;
  /** Its accessible name: the item's name or the action's title alone; where it is (and a snippet) describe it. */
  label: string;
  /** The ids of what describes it, when it has a place or a snippet. */
  describedBy?: string;
  run: () => void;
  content: ReactNode;
}
interface Section {
  key: string;
  label?: string;
  options: Option[];
}

/**
 * Where the palette's quick actions put things: the folder on screen when the person may add to
 * it (its entry is already cached by its page), else My files; a guest has no place of their own.
 */
function useActionTarget(workspace: TWorkspace) {
  const inFolder = useMatch(pagePatterns.folder)?.params.folderId;
  const inHome = !!useMatch(pagePatterns.myFiles);
  const folder = useItem(inFolder ?? (inHome ? workspace.homeId : undefined)).data;
  const linkTo = useItemLinks(workspace);
  if (folder?.abilities.createInside) return { id: folder.id, name: folderTitle(folder, workspace), to: linkTo(folder)! };
  return workspace.abilities.createInRoots ? { id: workspace.homeId, name: 'My files', to: pageRoutes.myFiles(workspace.slug) } : undefined;
}

/** An action answers to what is typed when each word typed starts a word of its name ("new doc", "upl"). */
function actionMatches(action: QuickAction, typed: string): boolean {
  const words = action.title.toLowerCase().split(/\s+/);
  return typed
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((t) => words.some((w) => w.startsWith(t)));
}

function ItemOption({ item, result, workspace, id }: { item: TItem; result?: TSearchResult; workspace: TWorkspace; id: string }) {
  const place = result ? placeOf(result, workspace) : null;
  const matches = result?.matches ?? [];
  return (
    <Group wrap="nowrap" gap="sm" align="flex-start">
      <span style={{ marginTop: 1, color: item.kind === 'folder' ? 'var(--mantine-primary-color-filled)' : undefined, display: 'flex' }}>
        <ItemIcon item={item} size={20} />
      </span>
      <div style={{ minWidth: 0, flex: 1 }}>
        <Group wrap="nowrap" gap="xs" justify="space-between">
          <Text size="sm" fw={500} truncate="end">
            <Highlighted text={item.name} matches={matches} field="name" />
          </Text>
          {place && (
            <Text id={`${id}-where`} size="xs" c="dimmed" truncate="end" maw="45%" style={{ flexShrink: 0 }}>
              <VisuallyHidden component="span">In </VisuallyHidden>
              {place}
            </Text>
          )}
        </Group>
        {result?.snippet && (
          <Text id={`${id}-snippet`} size="xs" c="dimmed" lineClamp={2}>
            <Highlighted text={result.snippet} matches={matches} field="snippet" />
          </Text>
        )}
      </div>
    </Group>
  );
}

function ActionOption({ icon: Icon, title, hint, id }: { icon: typeof IconSearch; title: ReactNode; hint?: string | undefined; id: string }) {
  return (
    <Group wrap="nowrap" gap="sm">
      <Icon aria-hidden size={20} style={{ flexShrink: 0 }} />
      <Text size="sm" fw={500} truncate="end" style={{ flex: 1 }}>
        {title}
      </Text>
      {hint && (
        <Text id={`${id}-where`} size="xs" c="dimmed" truncate="end" maw="45%">
          {hint}
        </Text>
      )}
    </Group>
  );
}

/**
 * The quick-search palette (Ctrl/⌘-K): results as the person types, from the first letter, with
 * the words found marked and where each item is; recent items before anything is typed; the quick
 * actions; and the search page for everything. A combobox: the focus stays in the field, arrows
 * move through the options (aria-activedescendant), Enter opens one, Escape closes and gives the
 * focus back to where it was.
 */
export default function SearchPalette(props: {
  workspace: TWorkspace;
  opened: boolean;
  onClose: () => void;
  text: string;
  onTextChange: (text: string) => void;
}) {
  const { workspace, opened, onClose, text, onTextChange } = props;
  const navigate = useNavigate();
  const linkTo = useItemLinks(workspace);
  const typed = text.trim();
  const [debounced] = useDebouncedValue(typed, DEBOUNCE_MS);
  // A field emptied shows recent items at once; a word typed asks once typing pauses.
  const search = useQuickSearch(workspace.id, typed ? debounced : '');
  const recent = useRecent(workspace.id);
  const quick = useQuickActions(workspace, useActionTarget(workspace));
  const [activeKey, setActiveKey] = useState<string | null>(null);
  const id = useId();
  const optionId = (key: string) => `${id}-option-${key}`;
  const describedBy = (key: string, where: boolean, snippet: boolean) =>
    [where && `${optionId(key)}-where`, snippet && `${optionId(key)}-snippet`].filter(Boolean).join(' ') || undefined;

  const openItem = (item: TItem) => {
    onClose();
    // A file opens in the viewer, whose Escape comes back to the page the palette was opened on.
    void navigate(linkTo(item), item.kind === 'file' ? { state: rememberReturn() } : undefined);
  };
  const results = typed ? (search.data?.results ?? []) : [];
  const similar = onlySimilar(results);
  const sections: Section[] = [];
  if (!typed) {
    const items = (recent.data ?? []).slice(0, RECENT);
    sections.push({
      key: 'recent',
      label: 'Recent',
      options: items.map((item) => ({
        key: item.id,
        label: item.name,
        run: () => openItem(item),
        content: <ItemOption item={item} workspace={workspace} id={optionId(item.id)} />,
      })),
    });
  } else {
    sections.push({
      key: 'results',
      label: similar ? 'No exact matches. Names like what you typed:' : 'Results',
      options: results.map((r) => ({
        key: r.item.id,
        label: r.item.name,
        describedBy: describedBy(r.item.id, !!placeOf(r, workspace), !!r.snippet),
        run: () => openItem(r.item),
        content: <ItemOption item={r.item} result={r} workspace={workspace} id={optionId(r.item.id)} />,
      })),
    });
  }
  sections.push({
    key: 'actions',
    label: 'Actions',
    options: quick.actions
      .filter((a) => !typed || actionMatches(a, typed))
      .map((a) => ({
        key: a.id,
        run: () => {
          onClose();
          a.run();
        },
        label: a.title,
        describedBy: describedBy(a.id, !!a.where, false),
        content: <ActionOption icon={a.icon} title={a.title} hint={a.where} id={optionId(a.id)} />,
      })),
  });
  if (typed) {
    sections.push({
      key: 'all',
      options: [
        {
          key: 'all',
          run: () => {
            onClose();
            void navigate(searchPageUrl(workspace.slug, { q: typed }));
          },
          label: `See all results for “${typed}”`,
          content: <ActionOption icon={IconArrowRight} title={`See all results for “${typed}”`} id={optionId('all')} />,
        },
      ],
    });
  }
  const shown = sections.filter((s) => s.options.length > 0);
  const options = shown.flatMap((s) => s.options);
  const active = options.find((o) => o.key === activeKey) ?? options[0];

  const activeId = active ? optionId(active.key) : undefined;

  // Where the focus was when the palette opened (also on its first opening, which mounts it): it
  // goes back there on closing, unless what the palette did put it somewhere (a dialog it opened).
  const returnTo = useRef<HTMLElement | null>(null);
  // The page it opened on: when the palette took the person elsewhere, the focus starts there instead.
  const openedOn = useRef('');
  const content = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    if (!opened) return;
    returnTo.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    openedOn.current = window.location.href;
  }, [opened]);
  const afterClose = () => {
    onTextChange('');
    const focused = document.activeElement;
    const lost = !focused || focused === document.body || !!content.current?.contains(focused);
    if (lost && window.location.href === openedOn.current && returnTo.current?.isConnected) returnTo.current.focus({ preventScroll: true });
  };
  // The option under the keyboard stays in view as the arrows move it.
  useEffect(() => {
    if (activeId) document.getElementById(activeId)?.scrollIntoView({ block: 'nearest' });
  }, [activeId]);

  // Results shown while newer ones are on their way are those of fewer letters.
  const waiting = !!typed && (search.isPending || debounced !== typed || search.isPlaceholderData);
  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    if (e.nativeEvent.isComposing || !options.length) return;
    const at = active ? options.indexOf(active) : 0;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      const next = (at + (e.key === 'ArrowDown' ? 1 : -1) + options.length) % options.length;
      setActiveKey(options[next]!.key);
    } else if (e.key === 'Enter') {
      // Before the results of what is typed have come, Enter on a result of fewer letters is for all results (the search page).
      if (waiting && !activeKey && results.some((r) => r.item.id === active?.key)) options.find((o) => o.key === 'all')?.run();
      else active?.run();
    } else return;
    e.preventDefault();
  };

  // What a screen reader hears as results arrive, and what the eye sees while they do.
  const status = !typed
    ? ''
    : search.isError
      ? 'Search is not available right now. Try again in a moment.'
      : waiting
        ? 'Searching…'
        : results.length === 0
          ? `Nothing found for “${typed}”.`
          : `${results.length}${search.data?.nextCursor ? '+' : ''} ${results.length === 1 ? 'result' : 'results'}`;
  const quiet = !!typed && !search.isError && !waiting && results.length > 0;

  return (
    <>
      {quick.element}
      <Modal.Root
        opened={opened}
        onClose={onClose}
        size="lg"
        yOffset="8dvh"
        xOffset={8}
        returnFocus={false}
        onExitTransitionEnd={afterClose}
        transitionProps={{ duration: 120 }}
      >
        <Modal.Overlay />
        <Modal.Content ref={content} aria-label="Search" radius="md">
          <TextInput
            data-autofocus
            size="lg"
            variant="unstyled"
            px="md"
            leftSection={search.isFetching && typed ? <Loader size={18} aria-hidden /> : <IconSearch aria-hidden size={20} />}
            placeholder="Search files, folders and documents"
            value={text}
            onChange={(e) => {
              setActiveKey(null);
              onTextChange(e.currentTarget.value);
            }}
            onFocus={(e) => e.currentTarget.setSelectionRange(e.currentTarget.value.length, e.currentTarget.value.length)}
            onKeyDown={onKeyDown}
            role="combobox"
            aria-label="Search"
            aria-autocomplete="list"
            aria-expanded={options.length > 0}
            aria-controls={`${id}-list`}
            aria-activedescendant={activeId}
            autoComplete="off"
            spellCheck={false}
            style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
          />
          {/* One region throughout, heard always and seen while there is no list to show the count. */}
          <Text role="status" size="sm" c="dimmed" px="md" pt={status ? 'sm' : 0} style={quiet ? HEARD_ONLY : undefined}>
            {status}
          </Text>
          {options.length > 0 && (
            // The list scrolls by itself, so it is in the tab order (a keyboard can scroll it) and
            // answers the same keys as the field: arrows move, Enter opens.
            <div
              role="listbox"
              id={`${id}-list`}
              aria-label="Search suggestions"
              aria-activedescendant={activeId}
              tabIndex={0}
              onKeyDown={onKeyDown}
              style={{ padding: 6, maxHeight: 'min(62dvh, 560px)', overflowY: 'auto', overscrollBehavior: 'contain' }}
            >
              {shown.map((section) => (
                <div key={section.key} role={section.label ? 'group' : undefined} aria-labelledby={section.label ? `${id}-${section.key}` : undefined}>
                  {section.label && (
                    <Text id={`${id}-${section.key}`} size="xs" fw={600} c="dimmed" px={10} pt={8} pb={4}>
                      {section.label}
                    </Text>
                  )}
                  {section.options.map((o) => (
                    <div
                      key={o.key}
                      id={optionId(o.key)}
                      role="option"
                      aria-label={o.label}
                      aria-describedby={o.describedBy}
                      aria-selected={o === active}
                      onMouseDown={(e) => e.preventDefault()}
                      onMouseMove={() => o !== active && setActiveKey(o.key)}
                      onClick={o.run}
                      style={{
                        padding: '8px 10px',
                        borderRadius: 'var(--mantine-radius-sm)',
                        cursor: 'pointer',
                        background: o === active ? 'var(--mantine-primary-color-light)' : undefined,
                        outline: o === active ? '1px solid var(--mantine-primary-color-light-color)' : undefined,
                      }}
                    >
                      {o.content}
                    </div>
                  ))}
                </div>
              ))}
            </div>
          )}
          <Group
            visibleFrom="sm"
            gap="md"
            px="md"
            py={8}
            c="dimmed"
            aria-hidden
            style={{ borderTop: '1px solid var(--mantine-color-default-border)', fontSize: 'var(--mantine-font-size-xs)' }}
          >
            <span>
              <Kbd size="xs">↑</Kbd> <Kbd size="xs">↓</Kbd> to move
            </span>
            <span>
              <Kbd size="xs">Enter</Kbd> to open
            </span>
            <span>
              <Kbd size="xs">Esc</Kbd> to close
            </span>
          </Group>
        </Modal.Content>
      </Modal.Root>
    </>
  );
}

import { ActionIcon, Box } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import type { TWorkspace } from '@cabinet/contracts';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { pageRoutes } from '../../../lib/page-routes.ts';
import './search-launcher.css';

const loadPalette = () => import('./search-palette.tsx');
// The palette comes with its first use (or the first sign of one): the shell carries only this field.
const SearchPalette = lazy(loadPalette);

const MAC = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
const SHORTCUT = MAC ? 'Meta+K' : 'Control+K';

/**
 * The header's search: a field (an icon on a phone) that opens the quick-search palette as soon as
 * it is clicked or typed in, Ctrl/⌘-K from anywhere in the workspace, and Enter for the search page.
 * The palette, once loaded, stays mounted (closed), so a dialog it opened outlives it.
 */
export function SearchLauncher({ workspace }: { workspace: TWorkspace }) {
  const [opened, setOpened] = useState(false);
  const [loaded, setLoaded] = useState(false);
  const [text, setText] = useState('');
  const navigate = useNavigate();
  // The search page has a field of its own.
  const onSearchPage = useLocation().pathname === pageRoutes.search(workspace.slug);
  const open = (typed = '') => {
    setText(typed);
    setLoaded(true);
    setOpened(true);
  };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      // The K key wherever it is, and whatever it types (a Cyrillic or Greek layout types another letter).
      if (!(MAC ? e.metaKey : e.ctrlKey) || e.altKey || e.shiftKey || (e.key.toLowerCase() !== 'k' && e.code !== 'KeyK')) return;
      e.preventDefault();
      setLoaded(true);
      setOpened(true);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  const preload = () => void loadPalette();
  return (
    <>
      {!onSearchPage && (
        <>
          <Box visibleFrom="sm" className="cabinet-search-field" onPointerEnter={preload}>
            <IconSearch aria-hidden size={16} />
            <input
              type="search"
              aria-label="Search"
              aria-keyshortcuts={SHORTCUT}
              aria-haspopup="dialog"
              placeholder="Search"
              value={text}
              onFocus={preload}
              onClick={() => open()}
              // A word being composed (an input method) is left to finish in this field: the palette opens with it.
              onChange={(e) => ((e.nativeEvent as InputEvent).isComposing ? setText(e.currentTarget.value) : open(e.currentTarget.value))}
              onCompositionEnd={(e) => open(e.currentTarget.value)}
              onKeyDown={(e) => {
                if (e.key !== 'Enter' || e.nativeEvent.isComposing) return;
                e.preventDefault();
                // Not by search-filters.ts: the header is in the first page's script, the search page's code is not.
                void navigate(pageRoutes.search(workspace.slug, { q: text.trim() }));
              }}
            />
            <kbd aria-hidden>{MAC ? '⌘K' : 'Ctrl K'}</kbd>
          </Box>
          <ActionIcon
            hiddenFrom="sm"
            variant="subtle"
            color="gray"
            size="lg"
            aria-label="Search"
            aria-haspopup="dialog"
            aria-keyshortcuts={SHORTCUT}
            onClick={() => open()}
          >
            <IconSearch aria-hidden size={20} />
          </ActionIcon>
        </>
      )}
      {loaded && (
        <Suspense fallback={null}>
          <SearchPalette workspace={workspace} opened={opened} onClose={() => setOpened(false)} text={text} onTextChange={setText} />
        </Suspense>
      )}
    </>
  );
}

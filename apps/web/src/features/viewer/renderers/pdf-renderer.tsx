import { ActionIcon, Box, Group, Text, TextInput, Tooltip } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconChevronDown, IconChevronUp, IconLayoutSidebar, IconSearch } from '@tabler/icons-react';
import { GlobalWorkerOptions, PDFDataRangeTransport, TextLayer, getDocument, type PDFDocumentProxy, type PDFPageProxy } from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { PREVIEW_LIMITS } from '@cabinet/contracts';
import { useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { ZoomControls } from './zoom-controls.tsx';
import { PagePicture, pictureOf, ViewerError, ViewerLoading } from './viewer-states.tsx';
import { useZoom } from '../hooks/use-zoom.ts';
import { readRange, type ViewerSource } from '../viewer-source.ts';
import type { RendererProps } from './types.ts';
import '../viewer.css';

// pdf.js parses in its own worker, a file of this app's build (never a CDN's).
GlobalWorkerOptions.workerSrc = workerUrl;

/**
 * pdf.js asks for the ranges it needs and is given them by Range requests to the signed URL (renewed
 * when it expires), so the first page of a 200 MB PDF shows after a few hundred KB.
 */
class RangeTransport extends PDFDataRangeTransport {
  constructor(
    length: number,
    private readonly source: ViewerSource,
    private readonly signal: AbortSignal,
  ) {
    super(length, null);
  }
  override requestDataRange(begin: number, end: number): void {
    readRange(this.source, begin, end, this.signal).then(
      (bytes) => this.onDataRange(begin, bytes),
      () => undefined,
    );
  }
}

interface PageSize {
  width: number;
  height: number;
}

/**
 * A PDF with pdf.js: pages drawn as they scroll into view, each with its text layer (select, copy,
 * find); thumbnails of the pages in a sidebar (hidden at first on a narrow screen); find in the
 * document; zoom. The PDF's JavaScript never runs (no scripting, no eval) and its forms and links
 * are not active: only its pictures and text are drawn.
 */
export default function PdfRenderer({ item, source }: RendererProps) {
  const [pdf, setPdf] = useState<PDFDocumentProxy>();
  const [error, setError] = useState<Error>();
  const [first, setFirst] = useState<PageSize>();
  const narrow = useMediaQuery('(max-width: 40em)') ?? false;
  const [sidebar, setSidebar] = useState<boolean>();
  const showSidebar = sidebar ?? !narrow;
  const [current, setCurrent] = useState(1);
  const scroller = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  const [attempt, setAttempt] = useState(0);
  // Page 1 comes first: the other pages and the thumbnails wait until it is drawn (or has failed), so
  // the first reads of the file go to what a person looks at first.
  const [firstDone, setFirstDone] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    let task: ReturnType<typeof getDocument> | undefined;
    void (async () => {
      try {
        const { size } = await source.url();
        task = getDocument({
          range: new RangeTransport(size, source, controller.signal),
          length: size,
          rangeChunkSize: PREVIEW_LIMITS.pdfRangeBytes,
          disableAutoFetch: true,
          disableStream: true,
          isEvalSupported: false,
          enableXfa: false,
          useWasm: false,
        });
        const doc = await task.promise;
        const page = await doc.getPage(1);
        const viewport = page.getViewport({ scale: 1 });
        if (controller.signal.aborted) return;
        setFirstDone(false);
        setFirst({ width: viewport.width, height: viewport.height });
        setPdf(doc);
      } catch (e) {
        if (!controller.signal.aborted)
          setError(e instanceof Error ? new Error(`This PDF could not be read: ${e.message}`) : new Error('This PDF could not be read.'));
      }
    })();
    return () => {
      controller.abort();
      void task?.destroy();
    };
  }, [source, attempt]);

  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setWidth(el.clientWidth));
    observer.observe(el);
    return () => observer.disconnect();
  }, [pdf]);

  // "Fit" is the page's width in the space there is (at most 150%: a wide screen does not blow a page up).
  const fitted = first && width ? Math.min(1.5, (width - 32) / first.width) : 1;
  const zoom = useZoom(fitted, !!pdf);
  const scale = Math.max(0.1, zoom.zoom ?? fitted);

  const find = useFind(pdf, scroller);

  if (error) {
    return (
      <ViewerError
        error={error}
        onRetry={() => {
          setError(undefined);
          setAttempt((n) => n + 1);
        }}
      />
    );
  }
  const goTo = (n: number) => scroller.current?.querySelector(`[data-page="${n}"]`)?.scrollIntoView({ block: 'start' });

  return (
    <Box h="100%" style={{ display: 'flex', flexDirection: 'column' }}>
      <Group justify="space-between" gap="xs" px="sm" py={6} wrap="wrap" style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}>
        <Group gap="xs" wrap="nowrap">
          <Tooltip label={showSidebar ? 'Hide page thumbnails' : 'Show page thumbnails'}>
            <ActionIcon
              variant={showSidebar ? 'light' : 'default'}
              aria-label="Page thumbnails"
              aria-pressed={showSidebar}
              onClick={() => setSidebar(!showSidebar)}
            >
              <IconLayoutSidebar aria-hidden size={18} />
            </ActionIcon>
          </Tooltip>
          <Text size="sm" aria-live="polite" style={{ whiteSpace: 'nowrap' }}>
            Page {current} of {pdf?.numPages ?? '…'}
          </Text>
        </Group>
        <ZoomControls zoom={zoom} scale={scale} />
        <FindBox find={find} />
      </Group>
      <Box style={{ flex: 1, minHeight: 0, display: 'flex' }}>
        {showSidebar &&
          (pdf && first ? (
            <Thumbnails pdf={pdf} first={first} current={current} onPick={goTo} waiting={!firstDone} />
          ) : (
            <Box w={148} style={{ flex: 'none', borderRight: '1px solid var(--mantine-color-default-border)' }} />
          ))}
        <Box
          ref={scroller}
          data-testid="pdf-pages"
          // Scrolled by the keyboard too (arrows, Page Down) once Tab reaches it.
          tabIndex={0}
          role="region"
          aria-label="Pages"
          style={{ flex: 1, minWidth: 0, overflow: 'auto', padding: 16, background: 'var(--mantine-color-default-hover)' }}
        >
          {/* Until pdf.js has read page 1: the picture Cabinet made of it, where it will be (ADR 0038). */}
          {!pdf || !first ? (
            <Box aria-busy="true" aria-label={`Loading ${item.name}`}>
              <PagePicture item={item} source={source} />
              {!pictureOf(item) && <ViewerLoading label={`Loading ${item.name}`} />}
            </Box>
          ) : (
            Array.from({ length: pdf.numPages }, (_, i) => (
              <PdfPage
                key={i + 1}
                pdf={pdf}
                number={i + 1}
                scale={scale}
                guess={first}
                root={scroller}
                onShown={setCurrent}
                find={find}
                waiting={i > 0 && !firstDone}
                onDone={i === 0 ? setFirstDone : undefined}
              />
            ))
          )}
        </Box>
      </Box>
    </Box>
  );
}

/** Calls `onVisible` once the element is near the scrolled view (pages and thumbnails are drawn only then). */
function useNearView(root: RefObject<HTMLElement | null>, margin: string) {
  const ref = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const observer = new IntersectionObserver(([entry]) => setNear(!!entry?.isIntersecting), { root: root.current, rootMargin: margin });
    observer.observe(el);
    return () => observer.disconnect();
  }, [root, margin]);
  return { ref, near };
}

/** Draws a page on a canvas at `scale` (sharp on high-density screens); answers the page once drawn. */
async function draw(page: PDFPageProxy, canvas: HTMLCanvasElement, scale: number) {
  const viewport = page.getViewport({ scale });
  const dpr = Math.min(window.devicePixelRatio || 1, 2);
  canvas.width = Math.floor(viewport.width * dpr);
  canvas.height = Math.floor(viewport.height * dpr);
  canvas.style.width = `${Math.floor(viewport.width)}px`;
  canvas.style.height = `${Math.floor(viewport.height)}px`;
  const task = page.render({ canvas, viewport, transform: dpr !== 1 ? [dpr, 0, 0, dpr, 0, 0] : undefined });
  await task.promise;
  return viewport;
}

function PdfPage(props: {
  pdf: PDFDocumentProxy;
  number: number;
  scale: number;
  guess: PageSize;
  root: RefObject<HTMLDivElement | null>;
  onShown: (n: number) => void;
  find: Find;
  /** Not drawn yet, even in view: page 1 is being drawn first. */
  waiting: boolean;
  /** Told once the page is drawn or has failed (page 1's, which the others wait for). */
  onDone: ((done: true) => void) | undefined;
}) {
  const { pdf, number, scale, root, find, onShown, waiting, onDone } = props;
  const { query: findQuery, current: found } = find;
  const { ref, near } = useNearView(root, '100% 0px');
  const canvas = useRef<HTMLCanvasElement>(null);
  const text = useRef<HTMLDivElement>(null);
  const [size, setSize] = useState<PageSize>();
  const [drawn, setDrawn] = useState(false);
  const [failed, setFailed] = useState(false);
  const width = (size?.width ?? props.guess.width) * scale;
  const height = (size?.height ?? props.guess.height) * scale;

  // The page shown now: the one crossing the middle of the view.
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const observer = new IntersectionObserver(([entry]) => entry?.isIntersecting && onShown(number), { root: root.current, rootMargin: '-50% 0px -50% 0px' });
    observer.observe(el);
    return () => observer.disconnect();
  }, [number, onShown, root, ref]);

  useEffect(() => {
    if (!near || waiting) return;
    let cancelled = false;
    let layer: TextLayer | undefined;
    void (async () => {
      try {
        const page = await pdf.getPage(number);
        if (cancelled || !canvas.current || !text.current) return;
        const base = page.getViewport({ scale: 1 });
        setSize({ width: base.width, height: base.height });
        const viewport = await draw(page, canvas.current, scale);
        if (cancelled) return;
        text.current.replaceChildren();
        layer = new TextLayer({ textContentSource: page.streamTextContent(), container: text.current, viewport });
        await layer.render();
        if (!cancelled) setDrawn(true);
      } catch {
        if (!cancelled) setFailed(true);
      }
      if (!cancelled) onDone?.(true);
    })();
    return () => {
      cancelled = true;
      layer?.cancel();
    };
  }, [near, waiting, pdf, number, scale, onDone]);

  // Marks what the find box found on this page, once its text is there.
  useEffect(() => {
    if (drawn && text.current) markFound(text.current, findQuery, found?.page === number ? found.index : -1);
  }, [drawn, findQuery, found, number]);

  return (
    <div
      ref={ref}
      className="pdf-page"
      data-page={number}
      data-drawn={drawn || undefined}
      role="region"
      aria-label={`Page ${number}`}
      style={{ width, height, ['--scale-factor' as string]: scale }}
    >
      <canvas ref={canvas} aria-hidden />
      <div ref={text} className="textLayer" />
      {failed && (
        <Text c="red" size="sm" p="md" pos="absolute" top={0}>
          This page could not be drawn.
        </Text>
      )}
    </div>
  );
}

function Thumbnails(props: { pdf: PDFDocumentProxy; first: PageSize; current: number; onPick: (n: number) => void; waiting: boolean }) {
  const { pdf, first, current, onPick, waiting } = props;
  const root = useRef<HTMLDivElement>(null);
  return (
    <Box
      ref={root}
      component="nav"
      aria-label="Page thumbnails"
      w={148}
      p={8}
      style={{ flex: 'none', overflow: 'auto', borderRight: '1px solid var(--mantine-color-default-border)' }}
    >
      {Array.from({ length: pdf.numPages }, (_, i) => (
        <Thumbnail key={i + 1} pdf={pdf} number={i + 1} first={first} root={root} current={current === i + 1} onPick={onPick} waiting={waiting} />
      ))}
    </Box>
  );
}

const THUMB_WIDTH = 112;

function Thumbnail(props: {
  pdf: PDFDocumentProxy;
  number: number;
  first: PageSize;
  root: RefObject<HTMLDivElement | null>;
  current: boolean;
  onPick: (n: number) => void;
  waiting: boolean;
}) {
  const { ref, near } = useNearView(props.root, '200px 0px');
  const canvas = useRef<HTMLCanvasElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const scale = THUMB_WIDTH / props.first.width;
  const { waiting } = props;
  useEffect(() => {
    if (!near || waiting) return;
    let cancelled = false;
    void props.pdf
      .getPage(props.number)
      .then((page) => {
        if (!cancelled && canvas.current) return draw(page, canvas.current, THUMB_WIDTH / page.getViewport({ scale: 1 }).width);
      })
      // A thumbnail that cannot be drawn stays blank; its page says why when it is shown.
      .catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, [near, waiting, props.pdf, props.number]);
  const { current } = props;
  useEffect(() => {
    if (current) button.current?.scrollIntoView({ block: 'nearest' });
  }, [current]);
  return (
    <div ref={ref} style={{ marginBottom: 8 }}>
      <button
        ref={button}
        type="button"
        className="pdf-thumb"
        aria-current={props.current}
        aria-label={`Go to page ${props.number}`}
        onClick={() => props.onPick(props.number)}
      >
        <canvas ref={canvas} aria-hidden width={THUMB_WIDTH} height={Math.round(props.first.height * scale)} style={{ width: THUMB_WIDTH }} />
        <Text size="xs" ta="center" mt={2}>
          {props.number}
        </Text>
      </button>
    </div>
  );
}

interface Find {
  query: string;
  setQuery: (q: string) => void;
  matches: { page: number; index: number }[] | undefined;
  current: { page: number; index: number } | undefined;
  position: number;
  searching: boolean;
  step: (direction: 1 | -1) => void;
}

/**
 * Find in the document: the text of every page is read (ranges again, only once someone searches),
 * each span of text holding the words counts its matches; Enter and Shift+Enter go to the next and
 * previous, which is marked and scrolled to.
 */
function useFind(pdf: PDFDocumentProxy | undefined, scroller: RefObject<HTMLDivElement | null>): Find {
  const [query, setQueryNow] = useState('');
  // A new query starts from no matches, at the first.
  const setQuery = (q: string) => {
    setQueryNow(q);
    setMatches(undefined);
    setPosition(0);
  };
  const [matches, setMatches] = useState<Find['matches']>();
  const [position, setPosition] = useState(0);
  const [searching, setSearching] = useState(false);
  const texts = useRef(new Map<number, string[]>());

  useEffect(() => {
    texts.current = new Map();
  }, [pdf]);

  useEffect(() => {
    const q = query.trim().toLowerCase();
    if (!pdf || !q) return;
    let cancelled = false;
    const timer = setTimeout(() => {
      setSearching(true);
      void (async () => {
        const found: { page: number; index: number }[] = [];
        for (let n = 1; n <= pdf.numPages && !cancelled; n++) {
          let strings = texts.current.get(n);
          if (!strings) {
            const content = await (await pdf.getPage(n)).getTextContent();
            strings = content.items.map((i) => ('str' in i ? i.str : ''));
            texts.current.set(n, strings);
          }
          let index = 0;
          for (const s of strings) index += countIn(s.toLowerCase(), q);
          for (let k = 0; k < index; k++) found.push({ page: n, index: k });
          // Matches appear as they are found: page by page.
          if (!cancelled) setMatches([...found]);
        }
        if (!cancelled) setSearching(false);
      })().catch(() => !cancelled && setSearching(false));
    }, 250);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [pdf, query]);

  const current = matches?.[position];
  useEffect(() => {
    if (!current) return;
    const page = scroller.current?.querySelector<HTMLElement>(`[data-page="${current.page}"]`);
    if (!page) return;
    const found = page.querySelectorAll('.found')[current.index];
    (found ?? page).scrollIntoView({ block: 'center' });
    // The page is drawn once near: its marks come a moment later, then the mark itself is scrolled to.
    if (!found) {
      const timer = setTimeout(() => page.querySelectorAll('.found')[current.index]?.scrollIntoView({ block: 'center' }), 600);
      return () => clearTimeout(timer);
    }
  }, [current, scroller]);

  return {
    query,
    setQuery,
    matches,
    current,
    position,
    searching,
    step: (direction) => matches?.length && setPosition((p) => (p + direction + matches.length) % matches.length),
  };
}

function countIn(haystack: string, needle: string): number {
  let n = 0;
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + needle.length)) n++;
  return n;
}

/** Marks each span of a page's text holding the query (the `index`th of the page as the current one). */
function markFound(layer: HTMLElement, query: string, index: number) {
  const q = query.trim().toLowerCase();
  let k = 0;
  for (const span of layer.querySelectorAll<HTMLElement>('span')) {
    if (span.querySelector('span')) continue;
    const count = q ? countIn((span.textContent ?? '').toLowerCase(), q) : 0;
    span.classList.toggle('found', count > 0);
    span.classList.toggle('current', count > 0 && index >= k && index < k + count);
    k += count;
  }
}

function FindBox({ find }: { find: Find }) {
  const count = find.matches?.length ?? 0;
  const status = !find.query.trim()
    ? ''
    : find.matches === undefined || (find.searching && count === 0)
      ? 'Searching…'
      : count === 0
        ? 'No matches'
        : `${find.position + 1} of ${count}${find.searching ? '+' : ''}`;
  const summary = useMemo(() => status, [status]);
  return (
    <Group gap={4} wrap="nowrap">
      <TextInput
        size="xs"
        w={{ base: 140, xs: 180 }}
        type="search"
        aria-label="Find in document"
        placeholder="Find in document"
        leftSection={<IconSearch aria-hidden size={14} />}
        value={find.query}
        onChange={(e) => find.setQuery(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            find.step(e.shiftKey ? -1 : 1);
          } else if (e.key === 'Escape' && find.query) {
            // Escape empties the box (the viewer's own keys never act from a text field).
            e.stopPropagation();
            e.preventDefault();
            find.setQuery('');
          }
        }}
      />
      <Text size="xs" c="dimmed" role="status" aria-live="polite" style={{ whiteSpace: 'nowrap' }}>
        {summary}
      </Text>
      <ActionIcon variant="default" size="sm" aria-label="Previous match" disabled={!count} onClick={() => find.step(-1)}>
        <IconChevronUp aria-hidden size={14} />
      </ActionIcon>
      <ActionIcon variant="default" size="sm" aria-label="Next match" disabled={!count} onClick={() => find.step(1)}>
        <IconChevronDown aria-hidden size={14} />
      </ActionIcon>
    </Group>
  );
}

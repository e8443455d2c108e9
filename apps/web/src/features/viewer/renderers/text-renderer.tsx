import { Box, Button, Center, Group, Switch, Text } from '@mantine/core';
import { createLowlight } from 'lowlight';
import { useEffect, useMemo, useRef, useState } from 'react';
import { formatBytes } from '../../../lib/format.ts';
import { ViewerError, ViewerLoading } from './viewer-states.tsx';
import { readRange } from '../viewer-source.ts';
import type { RendererProps } from './types.ts';
import { grammarFor } from './languages.ts';
import '../../../components/ui/code-colours.css';
import '../viewer.css';

/** Text is read this much at a time (by Range), never whole: "Load more" reads the next part. */
export const TEXT_PAGE_BYTES = 256 * 1024;
/** Highlighting stops beyond this much text (plain text after), so a long file stays quick to show. */
const HIGHLIGHT_MAX_CHARS = 1024 * 1024;

const lowlight = createLowlight();

interface Token {
  text: string;
  className: string | undefined;
}
type HastNode =
  { type: 'text'; value: string } | { type: 'element'; properties?: { className?: string[] }; children: HastNode[] } | { type: string; children?: HastNode[] };

/** Highlighted text as lines of tokens: a token that spans lines (a long comment) is cut at each line's end, keeping its class. */
function toLines(text: string, grammar: string | undefined): Token[][] {
  const tokens: Token[] = [];
  if (grammar && lowlight.registered(grammar) && text.length <= HIGHLIGHT_MAX_CHARS) {
    const walk = (node: HastNode, classes: string[]) => {
      if (node.type === 'text') tokens.push({ text: (node as { value: string }).value, className: classes.join(' ') || undefined });
      else if ('children' in node && node.children) {
        const own = node.type === 'element' ? ((node as { properties?: { className?: string[] } }).properties?.className ?? []) : [];
        for (const child of node.children) walk(child, [...classes, ...own]);
      }
    };
    walk(lowlight.highlight(grammar, text) as unknown as HastNode, []);
  } else {
    tokens.push({ text, className: undefined });
  }
  const lines: Token[][] = [[]];
  for (const token of tokens) {
    const parts = token.text.split('\n');
    parts.forEach((part, i) => {
      if (i > 0) lines.push([]);
      if (part) lines.at(-1)!.push({ text: part, className: token.className });
    });
  }
  // A file ends with a line break: that is the end of its last line, not a line of its own.
  if (lines.length > 1 && lines.at(-1)!.length === 0 && text.endsWith('\n')) lines.pop();
  return lines;
}

/**
 * Text and source code: the first 256 KB read by a Range request, then more on "Load more" — a
 * long log is never fetched whole. Highlighted by highlight.js with the grammar of the file's
 * extension (loaded on demand), with line numbers and a switch to wrap long lines. Shown as text,
 * never as markup: an HTML or SVG file is its source here.
 */
export default function TextRenderer({ item, source }: RendererProps) {
  // null until the first part is read.
  const [text, setText] = useState<string | null>(null);
  const [read, setRead] = useState(0);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<Error>();
  const [wrap, setWrap] = useState(true);
  // A grammar loaded since: the text is highlighted again.
  const [grammarsLoaded, setGrammarsLoaded] = useState(0);
  const decoder = useRef(new TextDecoder('utf-8'));
  const grammar = grammarFor(item.name);
  const size = item.size;

  const readMore = async (from: number) => {
    setLoading(true);
    setError(undefined);
    try {
      const end = Math.min(size, from + TEXT_PAGE_BYTES);
      const bytes = end > from ? await readRange(source, from, end) : new Uint8Array(0);
      // A character cut at the end of a part is kept until the next part completes it.
      const chunk = decoder.current.decode(bytes, { stream: end < size });
      setText((t) => (from === 0 ? chunk : (t ?? '') + chunk));
      setRead(end);
    } catch (e) {
      setError(e instanceof Error ? e : new Error(String(e)));
    } finally {
      setLoading(false);
    }
  };

  // The first part, once (a renderer is made afresh for each file and version).
  useEffect(() => {
    let live = true;
    const end = Math.min(size, TEXT_PAGE_BYTES);
    readRange(source, 0, end).then(
      (bytes) => {
        if (!live) return;
        setText(decoder.current.decode(bytes, { stream: end < size }));
        setRead(end);
        setLoading(false);
      },
      (e: unknown) => {
        if (!live) return;
        setError(e instanceof Error ? e : new Error(String(e)));
        setLoading(false);
      },
    );
    return () => {
      live = false;
    };
  }, [source, size]);

  const grammarName = grammar?.[0];
  const loadGrammar = grammar?.[1];
  useEffect(() => {
    if (!grammarName || !loadGrammar || lowlight.registered(grammarName)) return;
    let live = true;
    // Without its grammar the text is still shown, plain.
    loadGrammar().then(
      (m) => {
        if (!lowlight.registered(grammarName)) lowlight.register(grammarName, m.default);
        if (live) setGrammarsLoaded((n) => n + 1);
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [grammarName, loadGrammar]);

  // eslint-disable-next-line react-hooks/exhaustive-deps -- grammarsLoaded: highlight again once the grammar is there
  const lines = useMemo(() => toLines(text ?? '', grammarName), [text, grammarName, grammarsLoaded]);

  if (text === null) return error ? <ViewerError error={error} onRetry={() => void readMore(0)} /> : <ViewerLoading label={`Loading ${item.name}`} />;

  return (
    <Box h="100%" style={{ display: 'flex', flexDirection: 'column' }}>
      <Group justify="space-between" px="sm" py={6} style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}>
        <Text size="xs" c="dimmed">
          {lines.length.toLocaleString()} lines{read < size ? ` · first ${formatBytes(read)} of ${formatBytes(size)}` : ''}
        </Text>
        <Switch size="xs" label="Wrap lines" checked={wrap} onChange={(e) => setWrap(e.currentTarget.checked)} />
      </Group>
      <Box style={{ flex: 1, minHeight: 0, overflow: 'auto' }} tabIndex={0} role="region" aria-label={`Contents of ${item.name}`}>
        <pre className={`cabinet-code cabinet-code-colours${wrap ? ' wrap' : ''}`} data-language={grammar?.[0] ?? 'text'}>
          {lines.map((line, i) => (
            <LineRow key={i} number={i + 1} tokens={line} />
          ))}
        </pre>
        {read < size && (
          <Center p="md">
            <Button variant="default" loading={loading} onClick={() => void readMore(read)}>
              Load more ({formatBytes(Math.min(TEXT_PAGE_BYTES, size - read))} of {formatBytes(size - read)} left)
            </Button>
          </Center>
        )}
        {error && (
          <Text c="red" size="sm" ta="center" role="alert" pb="md">
            {error.message}
          </Text>
        )}
      </Box>
    </Box>
  );
}

function LineRow({ number, tokens }: { number: number; tokens: Token[] }) {
  return (
    <>
      <span className="line-number" aria-hidden>
        {number}
      </span>
      <code className="line">
        {tokens.map((t, i) =>
          t.className ? (
            <span key={i} className={t.className}>
              {t.text}
            </span>
          ) : (
            t.text
          ),
        )}
        {'\n'}
      </code>
    </>
  );
}

import { Alert, Button, Group, Skeleton, Stack, Tabs, Text, VisuallyHidden } from '@mantine/core';
import { PreviewPending } from './viewer-states.tsx';
import { PREVIEW_LIMITS, type TSheetPreview } from '@cabinet/contracts';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { queryKeys } from '../../../lib/query-keys.ts';
import type { RendererProps } from './types.ts';
import { columnName } from './column-name.ts';
import { PreviewFailure } from './preview-failure.tsx';
import { getPreview, previewUrl, retryPreview } from './preview-api.ts';
import './renderers.css';

/** The rows of one sheet, a page at a time: `first` is the page already fetched (the sheet's first). */
function useSheetRows(source: RendererProps['source'], sheet: number) {
  const key = previewUrl(source, 'preview/sheets', { sheet });
  return useInfiniteQuery({
    queryKey: queryKeys.preview(key),
    queryFn: ({ pageParam, signal }) =>
      getPreview<TSheetPreview>(previewUrl(source, 'preview/sheets', { sheet, offset: pageParam, limit: PREVIEW_LIMITS.sheetPageRows }), signal),
    initialPageParam: 0,
    getNextPageParam: (last) => {
      const next = last.offset + last.rows.length;
      return last.rows.length > 0 && next < (last.sheets[last.sheet]?.rows ?? 0) ? next : undefined;
    },
    staleTime: 5 * 60_000,
    refetchOnWindowFocus: false,
    retry: retryPreview,
  });
}

function SheetGrid({ name, pages, columns }: { name: string; pages: TSheetPreview[]; columns: number }) {
  const letters = Array.from({ length: columns }, (_, i) => columnName(i));
  return (
    <div className="sheet-scroll" tabIndex={0} role="region" aria-label={`Sheet ${name}, scrollable`}>
      <table className="sheet-table">
        <caption>
          <VisuallyHidden>{name}</VisuallyHidden>
        </caption>
        <thead>
          <tr>
            <th scope="col">
              <VisuallyHidden>Row</VisuallyHidden>
            </th>
            {letters.map((l) => (
              <th key={l} scope="col">
                {l}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {pages.flatMap((page) =>
            page.rows.map((row, i) => (
              <tr key={page.offset + i}>
                <th scope="row">{page.offset + i + 1}</th>
                {letters.map((l, c) => (
                  <td key={l}>{row[c] ?? ''}</td>
                ))}
              </tr>
            )),
          )}
        </tbody>
      </table>
    </div>
  );
}

/**
 * A spreadsheet file (XLSX, ODS, CSV, TSV) read on the server: its sheets as tabs (arrow keys move
 * between them), each a table with column letters and row numbers, its header and row numbers kept
 * in view while it scrolls, and more rows a page at a time.
 */
export function SheetTable({ item, source }: RendererProps) {
  const [sheet, setSheet] = useState(0);
  const first = useSheetRows(source, 0);
  const current = useSheetRows(source, sheet);
  const info = first.data?.pages[0];

  if (first.isPending) {
    return (
      <PreviewPending name={item.name}>
        <Skeleton h={32} w="40%" />
        <Skeleton h={240} />
      </PreviewPending>
    );
  }
  if (first.error || !info) return <PreviewFailure error={first.error} item={item} source={source} onRetry={() => void first.refetch()} />;

  const panel = (index: number) => {
    const shown = info.sheets[index]!;
    if (index !== sheet) return null;
    if (current.isPending) return <Skeleton h={240} aria-label={`Loading sheet ${shown.name}`} />;
    if (current.isError) return <PreviewFailure error={current.error} item={item} source={source} onRetry={() => void current.refetch()} />;
    const pages = current.data.pages;
    const loaded = pages.reduce((n, p) => n + p.rows.length, 0);
    if (shown.rows === 0) return <Text c="dimmed">This sheet is empty.</Text>;
    return (
      <Stack gap="xs">
        <SheetGrid name={shown.name} pages={pages} columns={shown.columns} />
        <Group justify="space-between" gap="xs">
          <Text size="sm" c="dimmed" aria-live="polite">
            Rows 1–{loaded.toLocaleString()} of {shown.rows.toLocaleString()}
          </Text>
          {current.hasNextPage && (
            <Button size="xs" variant="default" loading={current.isFetchingNextPage} onClick={() => void current.fetchNextPage()}>
              Load more rows
            </Button>
          )}
        </Group>
      </Stack>
    );
  };

  return (
    <Stack gap="sm" miw={0} className="viewer-page">
      {info.truncated && (
        <Alert color="yellow" variant="light" title="Only part of this file is shown">
          A preview shows at most {PREVIEW_LIMITS.sheetRows.toLocaleString()} rows and {PREVIEW_LIMITS.sheetColumns} columns of a sheet. Download the file to
          see all of it.
        </Alert>
      )}
      {info.sheets.length === 1 ? (
        panel(0)
      ) : (
        <Tabs value={String(sheet)} onChange={(v) => setSheet(Number(v ?? 0))} keepMounted={false} activateTabWithKeyboard>
          <Tabs.List aria-label={`Sheets of ${item.name}`} style={{ flexWrap: 'nowrap', overflowX: 'auto', overflowY: 'hidden' }}>
            {info.sheets.map((s, i) => (
              <Tabs.Tab key={i} value={String(i)} style={{ flex: 'none' }}>
                {s.name}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {info.sheets.map((_, i) => (
            <Tabs.Panel key={i} value={String(i)} pt="sm">
              {panel(i)}
            </Tabs.Panel>
          ))}
        </Tabs>
      )}
    </Stack>
  );
}

import { Alert, Group, Modal, Skeleton, Stack, Text, VisuallyHidden } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { filesApi, urlOf, type TFileVersion, type TItem } from '@cabinet/contracts';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { formatDateTime } from '../../../lib/format.ts';
import { useReturnFocus } from '../../../components/ui/use-return-focus.ts';
import { compareLines, COMPARE_MAX_BYTES, type DiffRow } from '../lib/compare-text.ts';
import '../../../components/ui/diff.css';

/** Rows drawn at most: a diff longer than this is cut, with a word saying so. */
const MAX_ROWS = 5000;

/** A version's bytes as text; binary bytes (a NUL among them) or too many of them are refused. */
async function versionText(itemId: string, version: TFileVersion): Promise<string> {
  if (version.size > COMPARE_MAX_BYTES) throw new Error(`Version ${version.number} is too large to compare here.`);
  const res = await fetch(urlOf(filesApi.content, { id: itemId }, { version: version.id }), { credentials: 'same-origin' });
  if (!res.ok) throw new Error(`Version ${version.number} could not be read.`);
  const bytes = new Uint8Array(await res.arrayBuffer());
  if (bytes.includes(0)) throw new Error(`Version ${version.number} is not text.`);
  return new TextDecoder().decode(bytes);
}

export const describeVersion = (v: TFileVersion) =>
  `Version ${v.number}${v.name ? ` “${v.name}”` : ''}, ${formatDateTime(v.createdAt)}${v.authorName ? ` by ${v.authorName}` : ''}`;

function Row({ row }: { row: DiffRow }) {
  if (row.kind === 'gap')
    return (
      <div className="gap">
        ⋯ {row.lines} unchanged line{row.lines === 1 ? '' : 's'}
      </div>
    );
  const content = (
    <>
      <span className="line-number" aria-hidden>
        {row.before ?? ''}
      </span>
      <span className="line-number" aria-hidden>
        {row.after ?? ''}
      </span>
      <span className="mark" aria-hidden>
        {row.kind === 'added' ? '+' : row.kind === 'removed' ? '−' : ''}
      </span>
      <span className="text">
        <VisuallyHidden>{row.kind === 'added' ? `Added, line ${row.after}: ` : row.kind === 'removed' ? `Removed, line ${row.before}: ` : ''}</VisuallyHidden>
        {row.text || ' '}
      </span>
    </>
  );
  if (row.kind === 'added') return <ins className="line cabinet-added">{content}</ins>;
  if (row.kind === 'removed') return <del className="line cabinet-removed">{content}</del>;
  return <div className="line">{content}</div>;
}

/** Two versions of a text file, line by line: what the newer one added (green) and removed (red, struck through). */
export function CompareVersionsDialog({ item, versions, onClose }: { item: TItem; versions: [TFileVersion, TFileVersion]; onClose: () => void }) {
  useReturnFocus();
  const narrow = useMediaQuery('(max-width: 36em)', false);
  const [older, newer] = [...versions].sort((a, b) => a.number - b.number) as [TFileVersion, TFileVersion];
  const texts = useQuery({
    queryKey: ['version-texts', item.id, older.id, newer.id],
    queryFn: () => Promise.all([versionText(item.id, older), versionText(item.id, newer)]),
    staleTime: Infinity,
    retry: false,
  });
  const diff = useMemo(() => (texts.data ? compareLines(texts.data[0], texts.data[1]) : undefined), [texts.data]);
  const label = `Changes from version ${older.number} to version ${newer.number}`;
  return (
    <Modal opened onClose={onClose} title={`Compare versions of ${item.name}`} size="xl" fullScreen={narrow} aria-describedby="compare-versions-summary">
      <Stack gap="sm">
        <Stack gap={2}>
          <Text size="sm">
            <Text span fw={600}>
              Older:
            </Text>{' '}
            {describeVersion(older)}
          </Text>
          <Text size="sm">
            <Text span fw={600}>
              Newer:
            </Text>{' '}
            {describeVersion(newer)}
          </Text>
        </Stack>
        {texts.isPending ? (
          <Skeleton h={160} aria-label="Loading the versions" />
        ) : texts.isError ? (
          <Alert color="red" title="These versions cannot be compared">
            {texts.error.message}
          </Alert>
        ) : (
          diff && (
            <>
              <Group gap="md" id="compare-versions-summary">
                <Text size="sm">
                  {diff.added === 0 && diff.removed === 0
                    ? 'The two versions have the same text.'
                    : `${diff.added} line${diff.added === 1 ? '' : 's'} added, ${diff.removed} removed.`}
                </Text>
                <Text size="sm">
                  <span className="cabinet-added">Added</span> <span className="cabinet-removed">Removed</span>
                </Text>
              </Group>
              <div className="cabinet-line-diff" role="region" aria-label={label} tabIndex={0} data-testid="line-diff">
                {diff.rows.slice(0, MAX_ROWS).map((row, i) => (
                  <Row key={i} row={row} />
                ))}
                {diff.rows.length > MAX_ROWS && <div className="gap">… {diff.rows.length - MAX_ROWS} more rows not shown</div>}
              </div>
            </>
          )
        )}
      </Stack>
    </Modal>
  );
}

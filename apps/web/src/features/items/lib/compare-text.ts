import { diffLines } from 'diff';

/** Files larger than this are not compared in the browser (each version is read whole). */
export const COMPARE_MAX_BYTES = 1024 * 1024;

const TEXT_TYPES = new Set([
  'application/json',
  'application/xml',
  'application/javascript',
  'application/x-javascript',
  'application/typescript',
  'application/x-sh',
  'application/x-yaml',
  'application/yaml',
  'application/toml',
  'application/sql',
  'application/x-httpd-php',
  'image/svg+xml',
]);

const TEXT_EXTENSIONS = new Set(
  (
    'txt text md markdown csv tsv log json jsonc json5 xml yaml yml toml ini cfg conf env properties sql ' +
    'js mjs cjs jsx ts tsx mts cts css scss sass less html htm svg vue svelte astro ' +
    'py rb php pl pm lua r go rs java kt kts scala swift m mm c h cc cpp cxx hpp hh cs fs fsx vb ' +
    'sh bash zsh fish ps1 bat cmd dockerfile makefile mk cmake gradle tf hcl proto graphql gql ' +
    'tex bib rst adoc org srt vtt diff patch gitignore editorconfig lock'
  ).split(' '),
);

/** Whether a file's versions can be compared line by line: text or source code, by its type or its name, small enough. */
export function isComparableText(file: { name: string; mimeType: string | null }, sizes: number[] = []): boolean {
  if (sizes.some((s) => s > COMPARE_MAX_BYTES)) return false;
  const type = (file.mimeType ?? '').toLowerCase().split(';')[0]!.trim();
  if (type.startsWith('text/') || TEXT_TYPES.has(type) || type.endsWith('+json') || type.endsWith('+xml')) return true;
  const name = file.name.toLowerCase();
  const dot = name.lastIndexOf('.');
  return TEXT_EXTENSIONS.has(dot >= 0 ? name.slice(dot + 1) : name);
}

/** One row of a line diff: a line in both, only in the older version (removed) or only in the newer (added); or a run of unchanged lines left out. */
export type DiffRow = { kind: 'same' | 'added' | 'removed'; text: string; before: number | null; after: number | null } | { kind: 'gap'; lines: number };

/** Unchanged lines shown around each change; longer unchanged runs are folded into a gap. */
const CONTEXT = 3;

const linesOf = (value: string) => {
  const lines = value.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
};

/**
 * `older` against `newer`, line by line: what `newer` added and what it removed, in order, with a
 * few unchanged lines around each change and the rest folded. Also the counts of added and removed lines.
 */
export function compareLines(older: string, newer: string): { rows: DiffRow[]; added: number; removed: number } {
  const all: Exclude<DiffRow, { kind: 'gap' }>[] = [];
  let before = 1;
  let after = 1;
  let added = 0;
  let removed = 0;
  for (const part of diffLines(older.replace(/\r\n/g, '\n'), newer.replace(/\r\n/g, '\n'))) {
    for (const text of linesOf(part.value)) {
      if (part.added) {
        all.push({ kind: 'added', text, before: null, after: after++ });
        added++;
      } else if (part.removed) {
        all.push({ kind: 'removed', text, before: before++, after: null });
        removed++;
      } else all.push({ kind: 'same', text, before: before++, after: after++ });
    }
  }
  // Keep each unchanged line within CONTEXT of a change; fold the rest.
  const near = new Array<boolean>(all.length).fill(false);
  all.forEach((row, i) => {
    if (row.kind === 'same') return;
    for (let k = Math.max(0, i - CONTEXT); k <= Math.min(all.length - 1, i + CONTEXT); k++) near[k] = true;
  });
  const rows: DiffRow[] = [];
  for (let i = 0; i < all.length;) {
    if (near[i] || all[i]!.kind !== 'same') {
      rows.push(all[i++]!);
      continue;
    }
    let j = i;
    while (j < all.length && !near[j] && all[j]!.kind === 'same') j++;
    rows.push({ kind: 'gap', lines: j - i });
    i = j;
  }
  return { rows, added, removed };
}

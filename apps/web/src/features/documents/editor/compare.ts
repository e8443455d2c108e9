import type { JSONContent } from '@tiptap/core';
import { diffArrays, diffWords } from 'diff';

/**
 * One block of an older state of a document compared with a newer one: the same in both, removed
 * since (only the older has it), added since (only the newer has it), or changed.
 */
export type ComparedBlock =
  | { kind: 'same' | 'removed' | 'added'; block: JSONContent }
  /** The same kind of block with other words: each word kept, removed since or added since. */
  | { kind: 'changed'; block: JSONContent; words: { text: string; is: 'kept' | 'removed' | 'added' }[] };

const INLINE = new Set(['text', 'mention', 'image', 'hardBreak']);

/** A block's words: inline pieces run together (mentions as `@name`), blocks inside it one to a line. */
function textOf(node: JSONContent): string {
  if (node.type === 'text') return node.text ?? '';
  if (node.type === 'mention') return `@${node.attrs?.label ?? ''}`;
  if (node.type === 'hardBreak') return '\n';
  const children = node.content ?? [];
  return children.map(textOf).join(children.every((c) => INLINE.has(c.type ?? '')) ? '' : '\n');
}

/** What makes two blocks the same block: its kind, attributes that show (heading level, language) and text. */
const keyOf = (node: JSONContent) =>
  JSON.stringify([node.type, node.attrs?.level, node.attrs?.language, node.attrs?.checked, JSON.stringify(node.content ?? [])]);

/**
 * An older state of a document (a revision) compared with a newer one (the document now), block by
 * block in order, as what changed from the older to the newer: blocks in both, blocks removed and
 * added since, and blocks of the same kind whose words changed (compared word by word).
 */
export function compareDocuments(older: JSONContent, newer: JSONContent): ComparedBlock[] {
  const before = older.content ?? [];
  const after = newer.content ?? [];
  const parts = diffArrays(before.map(keyOf), after.map(keyOf));
  const out: ComparedBlock[] = [];
  let i = 0;
  let j = 0;
  for (let p = 0; p < parts.length; p++) {
    const part = parts[p]!;
    const n = part.count ?? part.value.length;
    if (!part.added && !part.removed) {
      for (let k = 0; k < n; k++) out.push({ kind: 'same', block: before[i++]! });
      j += n;
      continue;
    }
    const next = parts[p + 1];
    if (part.removed && next?.added) {
      // Removed then added: pair blocks of the same kind as changed, the rest as whole blocks.
      const removed = before.slice(i, i + n);
      const added = after.slice(j, j + (next.count ?? next.value.length));
      i += removed.length;
      j += added.length;
      p++;
      const pairs = Math.min(removed.length, added.length);
      for (let k = 0; k < pairs; k++) {
        const [r, a] = [removed[k]!, added[k]!];
        if (r.type === a.type)
          out.push({
            kind: 'changed',
            block: r,
            words: diffWords(textOf(r), textOf(a)).map((w) => ({ text: w.value, is: w.added ? 'added' : w.removed ? 'removed' : 'kept' })),
          });
        else out.push({ kind: 'removed', block: r }, { kind: 'added', block: a });
      }
      for (const r of removed.slice(pairs)) out.push({ kind: 'removed', block: r });
      for (const a of added.slice(pairs)) out.push({ kind: 'added', block: a });
    } else if (part.removed) {
      for (let k = 0; k < n; k++) out.push({ kind: 'removed', block: before[i++]! });
    } else {
      for (let k = 0; k < n; k++) out.push({ kind: 'added', block: after[j++]! });
    }
  }
  return out;
}

import type { JSONContent } from '@tiptap/core';
import { diffArrays, diffWords } from 'diff';

/** One block of a revision shown against the current document. */
export type ComparedBlock =
  | { kind: 'same' | 'only-revision' | 'only-current'; block: JSONContent }
  /** The same kind of block with other words: the words in and out. */
  | { kind: 'changed'; block: JSONContent; words: { text: string; in: 'both' | 'revision' | 'current' }[] };

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
 * A revision compared with the current document, block by block in order: blocks in both, blocks
 * only one of them has, and blocks of the same kind whose words changed (compared word by word).
 */
export function compareDocuments(revision: JSONContent, current: JSONContent): ComparedBlock[] {
  const before = revision.content ?? [];
  const after = current.content ?? [];
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
            words: diffWords(textOf(r), textOf(a)).map((w) => ({ text: w.value, in: w.added ? 'current' : w.removed ? 'revision' : 'both' })),
          });
        else out.push({ kind: 'only-revision', block: r }, { kind: 'only-current', block: a });
      }
      for (const r of removed.slice(pairs)) out.push({ kind: 'only-revision', block: r });
      for (const a of added.slice(pairs)) out.push({ kind: 'only-current', block: a });
    } else if (part.removed) {
      for (let k = 0; k < n; k++) out.push({ kind: 'only-revision', block: before[i++]! });
    } else {
      for (let k = 0; k < n; k++) out.push({ kind: 'only-current', block: after[j++]! });
    }
  }
  return out;
}

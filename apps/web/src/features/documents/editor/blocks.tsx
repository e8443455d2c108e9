import {
  IconBlockquote,
  IconCode,
  IconH1,
  IconH2,
  IconH3,
  IconLetterT,
  IconList,
  IconListCheck,
  IconListNumbers,
  IconPaperclip,
  IconPhoto,
  IconSeparatorHorizontal,
  IconTable,
} from '@tabler/icons-react';
import type { ChainedCommands } from '@tiptap/core';
import type { ReactNode } from 'react';

/** A kind of block the `/` menu inserts, by the names people search for it. */
export interface Block {
  id: string;
  title: string;
  description: string;
  icon: ReactNode;
  keywords: string[];
  /** Turns the current block into this one (or inserts it); `image` asks for the picture first. */
  run: (chain: ChainedCommands) => ChainedCommands;
  /** Needs more from the person before it can be inserted. */
  asks?: 'image' | 'file';
}

const icon = (Icon: typeof IconH1) => <Icon aria-hidden size={18} />;

export const BLOCKS: Block[] = [
  { id: 'text', title: 'Text', description: 'Plain paragraph', icon: icon(IconLetterT), keywords: ['paragraph', 'p'], run: (c) => c.setParagraph() },
  { id: 'h1', title: 'Heading 1', description: 'Big section title', icon: icon(IconH1), keywords: ['title', '#'], run: (c) => c.setHeading({ level: 1 }) },
  {
    id: 'h2',
    title: 'Heading 2',
    description: 'Medium section title',
    icon: icon(IconH2),
    keywords: ['subtitle', '##'],
    run: (c) => c.setHeading({ level: 2 }),
  },
  { id: 'h3', title: 'Heading 3', description: 'Small section title', icon: icon(IconH3), keywords: ['###'], run: (c) => c.setHeading({ level: 3 }) },
  {
    id: 'bullets',
    title: 'Bulleted list',
    description: 'A simple list',
    icon: icon(IconList),
    keywords: ['ul', 'unordered', '-'],
    run: (c) => c.toggleBulletList(),
  },
  {
    id: 'numbers',
    title: 'Numbered list',
    description: 'A list with numbers',
    icon: icon(IconListNumbers),
    keywords: ['ol', 'ordered', '1.'],
    run: (c) => c.toggleOrderedList(),
  },
  {
    id: 'tasks',
    title: 'Task list',
    description: 'Things to tick off',
    icon: icon(IconListCheck),
    keywords: ['todo', 'checkbox', '[]'],
    run: (c) => c.toggleTaskList(),
  },
  { id: 'quote', title: 'Quote', description: 'Set a passage apart', icon: icon(IconBlockquote), keywords: ['blockquote', '>'], run: (c) => c.setBlockquote() },
  { id: 'code', title: 'Code block', description: 'Code with highlighting', icon: icon(IconCode), keywords: ['pre', '```'], run: (c) => c.setCodeBlock() },
  {
    id: 'table',
    title: 'Table',
    description: 'Rows and columns',
    icon: icon(IconTable),
    keywords: ['grid'],
    run: (c) => c.insertTable({ rows: 3, cols: 3, withHeaderRow: true }),
  },
  {
    id: 'divider',
    title: 'Divider',
    description: 'A horizontal rule',
    icon: icon(IconSeparatorHorizontal),
    keywords: ['hr', 'rule', '---'],
    run: (c) => c.setHorizontalRule(),
  },
  {
    id: 'file',
    title: 'File',
    description: 'Attach a file from your computer',
    icon: icon(IconPaperclip),
    keywords: ['attachment', 'upload', 'pdf'],
    run: (c) => c,
    asks: 'file',
  },
  {
    id: 'image',
    title: 'Image',
    description: 'A picture from your computer or the web',
    icon: icon(IconPhoto),
    keywords: ['picture', 'photo', 'img'],
    run: (c) => c,
    asks: 'image',
  },
];

/** Blocks whose name or keywords start with what was typed after `/`. */
export function matchBlocks(query: string): Block[] {
  const q = query.trim().toLowerCase();
  if (!q) return BLOCKS;
  return BLOCKS.filter((b) => [b.title.toLowerCase(), ...b.title.toLowerCase().split(' '), ...b.keywords].some((word) => word.startsWith(q)));
}

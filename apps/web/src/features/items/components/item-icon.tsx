import { IconFile, IconFileText, IconFolder } from '@tabler/icons-react';
import type { TItem } from '@cabinet/contracts';

/** A folder, a document (written in Cabinet) and a file (bytes uploaded) each look like what they are. */
export function ItemIcon({ item, size }: { item: Pick<TItem, 'kind'>; size: number }) {
  const Icon = item.kind === 'folder' ? IconFolder : item.kind === 'document' ? IconFileText : IconFile;
  return <Icon aria-hidden size={size} stroke={size > 24 ? 1.5 : 2} style={{ flexShrink: 0 }} />;
}

import { Checkbox } from '@mantine/core';
import type { TItem } from '@cabinet/contracts';

/** A row's or a card's box that adds its item to the selection or takes it out (out of the Tab order: Space does it from the row). */
export function ItemCheckbox({ item, selected, onToggle }: { item: TItem; selected: boolean; onToggle: () => void }) {
  return <Checkbox size="xs" aria-label={`Select ${item.name}`} checked={selected} onChange={onToggle} tabIndex={-1} />;
}

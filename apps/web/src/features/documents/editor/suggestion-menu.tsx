import { Paper, Stack, Text, UnstyledButton } from '@mantine/core';
import { useImperativeHandle, useState, type ReactNode, type Ref } from 'react';

export interface SuggestionMenuHandle {
  /** The editor's keys while the menu is open: arrows move, Enter picks. True when the key was used. */
  onKeyDown(event: KeyboardEvent): boolean;
}

export interface SuggestionEntry {
  key: string;
  title: string;
  description?: string;
  icon?: ReactNode;
}

export interface SuggestionMenuProps<I> {
  items: I[];
  command: (item: I) => void;
  /** What the list offers, for screen readers ("Insert a block", "Mention someone"). */
  label: string;
  /** Said when nothing matches what was typed. */
  empty: string;
  describe: (item: I) => SuggestionEntry;
  ref?: Ref<SuggestionMenuHandle>;
}

/** The menu that follows `/` and `@` in a document: a list picked with the arrows and Enter, or the mouse. */
export function SuggestionMenu<I>({ items, command, label, empty, describe, ref }: SuggestionMenuProps<I>) {
  // The highlight goes back to the first entry whenever the entries change.
  const [chosen, setChosen] = useState({ items, index: 0 });
  const active = chosen.items === items ? chosen.index : 0;
  const setActive = (next: number | ((current: number) => number)) =>
    setChosen((c) => ({ items, index: typeof next === 'function' ? next(c.items === items ? c.index : 0) : next }));
  useImperativeHandle(ref, () => ({
    onKeyDown(event) {
      if (!items.length) return false;
      if (event.key === 'ArrowDown') setActive((a) => (a + 1) % items.length);
      else if (event.key === 'ArrowUp') setActive((a) => (a + items.length - 1) % items.length);
      else if (event.key === 'Enter' || event.key === 'Tab') {
        const item = items[active];
        if (item) command(item);
      } else return false;
      return true;
    },
  }));
  return (
    <Paper shadow="md" withBorder p={4} miw={240} maw={320} mah={320} style={{ overflowY: 'auto' }}>
      {items.length === 0 ? (
        <Text size="sm" c="dimmed" p="xs">
          {empty}
        </Text>
      ) : (
        <Stack gap={0} role="listbox" aria-label={label}>
          {items.map((item, i) => {
            const entry = describe(item);
            return (
              <UnstyledButton
                key={entry.key}
                role="option"
                aria-selected={i === active}
                // The editor keeps the focus: a click must not take it away before the command runs.
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => command(item)}
                onMouseEnter={() => setActive(i)}
                px="xs"
                py={6}
                style={{
                  borderRadius: 'var(--mantine-radius-sm)',
                  background: i === active ? 'var(--mantine-color-default-hover)' : undefined,
                  display: 'flex',
                  gap: 10,
                  alignItems: 'center',
                }}
              >
                {entry.icon}
                <div>
                  <Text size="sm">{entry.title}</Text>
                  {entry.description && (
                    <Text size="xs" c="dimmed">
                      {entry.description}
                    </Text>
                  )}
                </div>
              </UnstyledButton>
            );
          })}
        </Stack>
      )}
    </Paper>
  );
}

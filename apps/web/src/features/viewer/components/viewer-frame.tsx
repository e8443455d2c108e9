import { ActionIcon, Box, Group, Text, Tooltip } from '@mantine/core';
import { IconArrowLeft, IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { useEffect, useRef, type ReactNode } from 'react';
import { useViewerKeys } from '../hooks/use-viewer-keys.ts';

export interface Neighbour {
  name: string;
  go: () => void;
}

/**
 * The viewer's page: a bar (back, the file's name, previous and next, the actions given) over the
 * file, filling the window. ← and → go to the previous and next file, Escape goes back — except
 * from a text field, a dialog or a menu. At either end of the folder the button is disabled and
 * the arrow does nothing: the viewer does not wrap around.
 */
export function ViewerFrame(props: {
  name: string;
  /** Under the name: the version shown, "Version 2 of 3"… */
  subtitle?: ReactNode;
  /** Where Back (and Escape) goes; none when the file is all there is (a link to one file). */
  onClose: (() => void) | undefined;
  closeLabel: string;
  previous: Neighbour | undefined;
  next: Neighbour | undefined;
  /** Where in the folder: the file's place, how many files are listed, and whether more are still to come ("3 of 12+"). */
  position?: { at: number; of: number; more: boolean } | undefined;
  actions?: ReactNode;
  children: ReactNode;
}) {
  const { previous, next } = props;
  const heading = useRef<HTMLHeadingElement>(null);
  useViewerKeys((e) => {
    if (e.key === 'Escape' && props.onClose) props.onClose();
    else if (e.key === 'ArrowLeft' && !e.shiftKey && previous) previous.go();
    else if (e.key === 'ArrowRight' && !e.shiftKey && next) next.go();
    else return false;
    return true;
  });
  // A new file: the keyboard starts at its name (so Tab leads through its bar and then the file), and screen readers hear it.
  useEffect(() => {
    if (!heading.current?.contains(document.activeElement)) heading.current?.focus({ preventScroll: true });
  }, [props.name]);
  return (
    <Box
      pos="fixed"
      inset={0}
      style={{ zIndex: 150, display: 'flex', flexDirection: 'column', background: 'var(--mantine-color-body)' }}
      data-testid="file-viewer"
    >
      <Group
        component="header"
        gap="xs"
        px="xs"
        py={6}
        wrap="nowrap"
        justify="space-between"
        style={{ borderBottom: '1px solid var(--mantine-color-default-border)', flex: 'none' }}
      >
        <Group gap={4} wrap="nowrap" miw={0} style={{ flex: 1 }}>
          {props.onClose && (
            <Tooltip label={`${props.closeLabel} (Esc)`}>
              <ActionIcon variant="subtle" color="gray" size="lg" aria-label={props.closeLabel} onClick={props.onClose}>
                <IconArrowLeft aria-hidden size={20} />
              </ActionIcon>
            </Tooltip>
          )}
          <Box miw={0}>
            <Text ref={heading} component="h1" fw={600} size="md" truncate="end" tabIndex={-1} style={{ outline: 'none' }} title={props.name}>
              {props.name}
            </Text>
            {props.subtitle}
          </Box>
        </Group>
        <Group gap={4} wrap="nowrap" style={{ flex: 'none' }}>
          {(previous || next || props.position) && (
            <Group gap={2} wrap="nowrap" role="group" aria-label="Files of the folder">
              <Tooltip label={previous ? `Previous: ${previous.name} (←)` : 'This is the first file'}>
                <ActionIcon variant="default" size="lg" aria-label="Previous file" disabled={!previous} onClick={() => previous?.go()}>
                  <IconChevronLeft aria-hidden size={18} />
                </ActionIcon>
              </Tooltip>
              {props.position && (
                <Text
                  size="xs"
                  c="dimmed"
                  px={4}
                  visibleFrom="xs"
                  ta="center"
                  // As wide as the widest place ("12 of 12"), so stepping from 9 to 10 does not move the buttons.
                  miw={`${2 * String(props.position.of).length + 5}ch`}
                  style={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}
                >
                  {props.position.at} of {props.position.of}
                  {props.position.more ? '+' : ''}
                </Text>
              )}
              <Tooltip label={next ? `Next: ${next.name} (→)` : 'This is the last file'}>
                <ActionIcon variant="default" size="lg" aria-label="Next file" disabled={!next} onClick={() => next?.go()}>
                  <IconChevronRight aria-hidden size={18} />
                </ActionIcon>
              </Tooltip>
            </Group>
          )}
          {props.actions}
        </Group>
      </Group>
      <Box component="main" style={{ flex: 1, minHeight: 0, position: 'relative' }}>
        {props.children}
      </Box>
    </Box>
  );
}

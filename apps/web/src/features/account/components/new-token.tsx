import { CloseButton, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { CopyableValue } from '../../../components/ui/shown-once.tsx';

/** One value to enter where the token is used, named by its label. */
export interface TokenField {
  term: string;
  value: string;
  copyLabel: string;
}

/**
 * A token just made, its secret shown this once: what to enter where it is used, each value with a button copying it.
 * It takes the focus, so the keyboard and a screen reader are on it.
 */
export function NewToken({ title, fields, onDismiss, children }: { title: string; fields: TokenField[]; onDismiss: () => void; children: ReactNode }) {
  const heading = useId();
  const region = useRef<HTMLElement>(null);
  const secret = fields.at(-1)?.value;
  useEffect(() => region.current?.focus(), [secret]);
  return (
    <Paper component="section" ref={region} tabIndex={-1} aria-labelledby={heading} withBorder radius="md" p="md" bg="var(--mantine-color-green-light)">
      <Group justify="space-between" wrap="nowrap" align="flex-start" mb="xs">
        <Title order={3} fz="md" id={heading}>
          {title}
        </Title>
        <CloseButton onClick={onDismiss} aria-label="Dismiss" />
      </Group>
      <Text size="sm" mb="sm">
        {children} Copy it now: it will not be shown again.
      </Text>
      <Stack gap="xs">
        {fields.map((f) => (
          <Field key={f.term} {...f} />
        ))}
      </Stack>
    </Paper>
  );
}

function Field({ term, value, copyLabel }: TokenField) {
  const id = useId();
  return (
    <div role="group" aria-labelledby={id}>
      <Text size="xs" fw={600} id={id}>
        {term}
      </Text>
      <CopyableValue value={value} copyLabel={copyLabel} />
    </div>
  );
}

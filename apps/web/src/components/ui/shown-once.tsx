import { ActionIcon, Code, CopyButton, Group, Stack, Text, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';

/** A value to copy, shown whole with a button copying it; `label` names the value where no text beside it does. */
export function CopyableValue({ value, copyLabel, label }: { value: string; copyLabel: string; label?: string }) {
  return (
    <Group gap="xs" wrap="nowrap">
      <Code style={{ wordBreak: 'break-all' }} aria-label={label}>
        {value}
      </Code>
      <CopyButton value={value}>
        {({ copied, copy }) => (
          <Tooltip label={copied ? 'Copied' : 'Copy'}>
            <ActionIcon variant="light" onClick={copy} aria-label={copyLabel}>
              {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
            </ActionIcon>
          </Tooltip>
        )}
      </CopyButton>
    </Group>
  );
}

/** A secret shown once, just made (an API token, an invite link): the value and a button copying it. */
export function ShownOnce({ value, label, copyLabel }: { value: string; label: string; copyLabel: string }) {
  return (
    <Stack gap="xs">
      <Text size="sm">Copy it now: it will not be shown again.</Text>
      <CopyableValue value={value} label={label} copyLabel={copyLabel} />
    </Stack>
  );
}

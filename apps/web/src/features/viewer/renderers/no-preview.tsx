import { Button, Center, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { IconDownload, IconFileUnknown } from '@tabler/icons-react';
import { formatBytes } from '../../../lib/format.ts';
import type { RendererProps } from './types.ts';

/** What a file with no preview shows: what it is, why when known, and its download (when allowed). */
export function NoPreview({ item, source, title = 'No preview for this kind of file', reason }: RendererProps & { title?: string; reason?: string }) {
  return (
    <Center h="100%" p="md">
      <Paper withBorder radius="lg" p="xl" maw={440} w="100%" data-testid="no-preview">
        <Stack align="center" gap="md">
          <IconFileUnknown aria-hidden size={56} stroke={1.2} />
          <Title order={2} fz="h4" ta="center">
            {title}
          </Title>
          {reason && (
            <Text size="sm" ta="center">
              {reason}
            </Text>
          )}
          <Table variant="vertical" withRowBorders={false} aria-label="About this file">
            <Table.Tbody>
              <Table.Tr>
                <Table.Th w={64}>Name</Table.Th>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>{item.name}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>Size</Table.Th>
                <Table.Td>{formatBytes(item.size)}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>Type</Table.Th>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>{item.mimeType ?? 'Unknown'}</Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
          {source.downloadUrl ? (
            <Button component="a" href={source.downloadUrl} leftSection={<IconDownload aria-hidden size={18} />}>
              Download
            </Button>
          ) : (
            <Text size="sm" c="dimmed" ta="center">
              Downloads are turned off for this link.
            </Text>
          )}
        </Stack>
      </Paper>
    </Center>
  );
}

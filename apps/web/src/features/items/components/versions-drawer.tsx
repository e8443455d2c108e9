import { Anchor, Badge, Button, Drawer, FileButton, Group, Skeleton, Stack, Table, Text } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { filesApi, urlOf, type TItem } from '@cabinet/contracts';
import { useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import { formatBytes, formatDate } from '../../../lib/format.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { useUploader } from '../../uploads/hooks/use-uploader.ts';
import { useReturnFocus } from '../../../components/ui/use-return-focus.ts';

/** A file's versions, newest first: download any of them, or upload a new one. */
export function VersionsDrawer({ item, onClose }: { item: TItem; onClose: () => void }) {
  useReturnFocus();
  const uploader = useUploader();
  const versions = useQuery({
    queryKey: [...queryKeys.versions(item.id), item.version],
    queryFn: async () => (await call(filesApi.versions, { params: { id: item.id } })).items,
  });
  return (
    <Drawer
      opened
      onClose={onClose}
      position="right"
      title={
        <Text fw={600} truncate="end">
          Versions of {item.name}
        </Text>
      }
    >
      <Stack>
        {item.abilities.edit && (
          <FileButton onChange={(file) => file && uploader.addVersion(item, file)}>
            {(props) => (
              <Button {...props} variant="light" leftSection={<IconUpload aria-hidden size={16} />}>
                Upload a new version
              </Button>
            )}
          </FileButton>
        )}
        {versions.isPending ? (
          <Skeleton h={80} />
        ) : (
          <Table aria-label="Versions">
            <Table.Tbody>
              {(versions.data ?? []).map((v) => (
                <Table.Tr key={v.id}>
                  <Table.Td>
                    <Group gap="xs">
                      <Text size="sm" fw={500}>
                        Version {v.number}
                      </Text>
                      {v.current && <Badge size="xs">Current</Badge>}
                    </Group>
                    <Text size="xs" c="dimmed">
                      {formatDate(v.createdAt)} · {formatBytes(v.size)}
                    </Text>
                  </Table.Td>
                  <Table.Td ta="right">
                    <Anchor
                      href={urlOf(filesApi.content, { id: item.id }, { version: v.id, download: '1' })}
                      size="sm"
                      aria-label={`Download version ${v.number}`}
                    >
                      Download
                    </Anchor>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
    </Drawer>
  );
}

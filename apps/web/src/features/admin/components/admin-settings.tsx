import { Badge, Loader, Table, Text } from '@mantine/core';
import { useAdminSettings } from '../api/use-admin.ts';
import { AdminFailure } from './admin-failure.tsx';

/** The settings the instance runs with: what the operator set, and the defaults; secrets never shown. */
export function AdminSettings() {
  const settings = useAdminSettings();
  if (settings.isPending) return <Loader aria-label="Loading the settings" />;
  if (!settings.data) return <AdminFailure error={settings.error} what="The settings" />;
  return (
    <>
      <Text size="sm" c="dimmed" mb="sm">
        Settings are read from the environment (or a .env file) when Cabinet starts; secrets are masked.
      </Text>
      <Table.ScrollContainer minWidth={320}>
        <Table aria-label="Settings in force" verticalSpacing={6} striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Setting</Table.Th>
              <Table.Th>Value</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {settings.data.map((s) => (
              <Table.Tr key={s.name}>
                <Table.Td>
                  <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                    {s.name}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm" ff="monospace" span style={{ overflowWrap: 'anywhere' }} c={s.value === null ? 'dimmed' : undefined}>
                    {s.value ?? 'unset'}
                  </Text>{' '}
                  {s.set ? (
                    <Badge size="xs" variant="light">
                      set
                    </Badge>
                  ) : (
                    s.value !== null && (
                      <Badge size="xs" variant="outline" color="gray">
                        default
                      </Badge>
                    )
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </>
  );
}

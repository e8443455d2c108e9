import { Card, Group, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconClock, IconFileText, IconStar, IconUpload } from '@tabler/icons-react';
import type { TWorkspace } from '@cabinet/contracts';
import { useOutletContext } from 'react-router';
import { useMe } from '../../features/auth/api/use-me.ts';

const QUICK = [
  { icon: IconUpload, title: 'Upload files', text: 'Files of any size, straight to storage, resumable after a dropped connection.' },
  { icon: IconFileText, title: 'Write a document', text: 'Edit together in real time, with comments and history.' },
];

export function HomePage() {
  const workspace = useOutletContext<TWorkspace>();
  const me = useMe();
  const firstName = me.data?.user.name.split(/\s+/)[0];
  return (
    <Stack gap="xl" maw={960}>
      <div>
        <Title order={1} fz="h2">
          Welcome{firstName ? `, ${firstName}` : ''}
        </Title>
        <Text c="dimmed">{workspace.name}</Text>
      </div>
      <section aria-labelledby="quick-actions">
        <Title order={2} fz="h4" id="quick-actions" mb="sm">
          Quick actions
        </Title>
        <SimpleGrid cols={{ base: 1, xs: 2 }}>
          {QUICK.map((q) => (
            <Card key={q.title} withBorder radius="md" padding="lg">
              <Group wrap="nowrap" align="flex-start">
                <ThemeIcon variant="light" size="lg" aria-hidden>
                  <q.icon size={20} />
                </ThemeIcon>
                <div>
                  <Text fw={600}>{q.title}</Text>
                  <Text size="sm" c="dimmed">
                    {q.text} Coming soon.
                  </Text>
                </div>
              </Group>
            </Card>
          ))}
        </SimpleGrid>
      </section>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <section aria-labelledby="recent-heading">
          <Title order={2} fz="h4" id="recent-heading" mb="sm">
            Recent
          </Title>
          <Card withBorder radius="md">
            <Group gap="sm" wrap="nowrap">
              <IconClock aria-hidden size={20} />
              <Text size="sm" c="dimmed">
                Files and documents you open or change will be listed here.
              </Text>
            </Group>
          </Card>
        </section>
        <section aria-labelledby="starred-heading">
          <Title order={2} fz="h4" id="starred-heading" mb="sm">
            Starred
          </Title>
          <Card withBorder radius="md">
            <Group gap="sm" wrap="nowrap">
              <IconStar aria-hidden size={20} />
              <Text size="sm" c="dimmed">
                Star what you use often and it will wait for you here.
              </Text>
            </Group>
          </Card>
        </section>
      </SimpleGrid>
    </Stack>
  );
}

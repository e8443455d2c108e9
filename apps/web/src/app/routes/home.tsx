import { Card, Group, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconClock, IconFileText, IconStar, IconUpload } from '@tabler/icons-react';
import type { TWorkspace } from '@cabinet/contracts';
import { useOutletContext } from 'react-router';
import { useMe } from '../../features/auth/api/use-me.ts';

const QUICK = [
  { icon: IconUpload, title: 'Upload files', text: 'Files of any size, straight to storage, resumable after a dropped connection.' },
  { icon: IconFileText, title: 'Write a document', text: 'Edit together in real time, with comments and history.' },
];

function Upcoming({ id, title, icon: Icon, text }: { id: string; title: string; icon: typeof IconClock; text: string }) {
  return (
    <section aria-labelledby={id}>
      <Title order={2} fz="h4" id={id} mb="sm">
        {title}
      </Title>
      <Card withBorder radius="md">
        <Group gap="sm" wrap="nowrap">
          <Icon aria-hidden size={20} />
          <Text size="sm" c="dimmed">
            {text}
          </Text>
        </Group>
      </Card>
    </section>
  );
}

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
        <Upcoming id="recent-heading" title="Recent" icon={IconClock} text="Files and documents you open or change will be listed here." />
        <Upcoming id="starred-heading" title="Starred" icon={IconStar} text="Star what you use often and it will wait for you here." />
      </SimpleGrid>
    </Stack>
  );
}

import { Alert, Button, Group, Loader, Select, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertCircle } from '@tabler/icons-react';
import type { TSearchLanguage, TSearchSettings, TWorkspace } from '@cabinet/contracts';
import { useState } from 'react';
import { useSearchSettings, useUpdateSearchSettings } from '../api/use-search-settings.ts';

/** A language as the database names it (`english`), as people read it (English); `simple` is no language. */
const languageName = (name: string) =>
  name === 'simple' ? 'No language: words match only as written' : name.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());

/**
 * The language of the workspace's documents and files, whose word forms search matches ("house"
 * finds "houses"): changing it reads every text already indexed again, in the background.
 */
export function SearchSettingsSection({ workspace }: { workspace: TWorkspace }) {
  const settings = useSearchSettings(workspace.id);
  if (settings.error) {
    return (
      <Alert color="red" icon={<IconAlertCircle aria-hidden />} role="alert" title="The search settings could not be shown">
        {settings.error.message}
      </Alert>
    );
  }
  if (!settings.data) return <Loader aria-label="Loading the search settings" />;
  return <LanguageForm workspace={workspace} saved={settings.data} />;
}

function LanguageForm({ workspace, saved }: { workspace: TWorkspace; saved: TSearchSettings }) {
  const save = useUpdateSearchSettings(workspace.id);
  const [language, setLanguage] = useState<TSearchLanguage>(saved.language);
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate(
          { language },
          {
            onSuccess: (s) =>
              notifications.show({
                color: 'green',
                message: s.updating ? 'Search language saved. Texts are being read again in it.' : 'Search language saved',
              }),
          },
        );
      }}
    >
      <Stack gap="sm">
        {save.error && (
          <Alert color="red" role="alert" title="The search language was not saved">
            {save.error.message}
          </Alert>
        )}
        <Select
          label="Language of documents and files"
          description="Search matches the forms of a word in this language: “house” also finds “houses”. Names always match as written."
          data={saved.languages.map((value) => ({ value, label: languageName(value) }))}
          value={language}
          onChange={(v) => v && setLanguage(v as TSearchLanguage)}
          allowDeselect={false}
          searchable
          maw={420}
        />
        <Text size="sm" c="dimmed" role="status">
          {saved.updating ? (
            <Group gap={6} component="span">
              <Loader size={12} aria-hidden />
              Texts already indexed are being read again{saved.language === 'simple' ? '' : ` in ${languageName(saved.language)}`}. Search works meanwhile; some
              words may match only once that is done.
            </Group>
          ) : saved.language === 'simple' ? (
            'Words in texts match only as written.'
          ) : (
            `Texts are indexed in ${languageName(saved.language)}.`
          )}
        </Text>
        <Group>
          <Button type="submit" loading={save.isPending} disabled={language === saved.language}>
            Save search language
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

import { Stack, Switch, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useNotificationSettings, useUpdateNotificationSettings } from '../api/use-notifications.ts';

/** The account's switch for mail about notifications left unread (each mailed once, a few minutes after it came). */
export function MailSetting() {
  const settings = useNotificationSettings();
  const update = useUpdateNotificationSettings();
  const checked = update.isPending && update.variables ? update.variables.emailUnread : (settings.data?.emailUnread ?? true);
  return (
    <Stack gap="xs" align="flex-start">
      <Text size="sm" c="dimmed">
        The bell at the top of every page lists what concerns you: items shared with you, mentions of you, and replies in your comment threads.
      </Text>
      <Switch
        label="Send me mail about notifications I haven't read"
        description="Sent a few minutes after a notification comes, if you have not read it by then; each is mailed once."
        checked={checked}
        disabled={settings.isPending}
        onChange={(e) =>
          update.mutate({ emailUnread: e.currentTarget.checked }, { onError: (error) => notifications.show({ color: 'red', message: error.message }) })
        }
      />
    </Stack>
  );
}

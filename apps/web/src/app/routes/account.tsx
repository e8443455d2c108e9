import { Skeleton, Stack, Text, Title } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { ColorSchemeControl } from '../../components/ui/color-scheme-control.tsx';
import { ApiTokensSection } from '../../features/account/components/api-tokens-section.tsx';
import { AppPasswordsSection } from '../../features/account/components/app-passwords-section.tsx';
import { ProfileSection } from '../../features/account/components/profile-section.tsx';
import { SessionsSection } from '../../features/account/components/sessions-section.tsx';
import { MailSetting } from '../../features/notifications/components/mail-setting.tsx';
import { Section } from '../../components/ui/section.tsx';
import { PersonalShell } from '../shell.tsx';

// Loaded as the page draws: what it needs beside the other sections (the password's and the codes' inputs, the dialogs) is
// the Security section's own, and the first page's script does not list it among the account page's.
const SecuritySection = lazy(() => import('../../features/account/components/security-section.tsx').then((m) => ({ default: m.SecuritySection })));

export function AccountPage() {
  return (
    <PersonalShell>
      <Stack maw={880} gap="lg">
        <Title order={1} fz="h2">
          Account
        </Title>
        <Section id="profile" title="Profile">
          <ProfileSection />
        </Section>
        <Section id="appearance" title="Appearance">
          <Stack gap="xs" align="flex-start">
            <Text size="sm" c="dimmed">
              Choose a theme, or follow your system’s setting.
            </Text>
            <ColorSchemeControl />
          </Stack>
        </Section>
        <Section id="notifications" title="Notifications">
          <MailSetting />
        </Section>
        <Section id="security" title="Security">
          <Suspense fallback={<Skeleton h={56} />}>
            <SecuritySection />
          </Suspense>
        </Section>
        <Section id="sessions" title="Sessions">
          <SessionsSection />
        </Section>
        <Section id="tokens" title="API tokens">
          <ApiTokensSection />
        </Section>
        <Section id="app-passwords" title="App passwords">
          <AppPasswordsSection />
        </Section>
      </Stack>
    </PersonalShell>
  );
}

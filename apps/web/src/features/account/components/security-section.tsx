import { Button, CloseButton, CopyButton, Group, Paper, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { TTotpSetUp } from '@cabinet/contracts';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { CopyableValue } from '../../../components/ui/shown-once.tsx';
import { StateBadge } from '../../../components/ui/state-badge.tsx';
import { useTextField } from '../../../components/ui/use-text-field.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { fieldMessage } from '../../../lib/field-message.ts';
import { PasskeysSection } from './passkeys-section.tsx';
import { PasswordForm } from './password-form.tsx';
import { useBeginTotp, useConfirmTotp, useRegenerateRecoveryCodes, useRemoveTwoStep, useTwoStep } from '../api/use-two-step.ts';

/**
 * Account → Security with the embedded provider: the password (PasswordForm), and two-step sign-in with an authenticator
 * app: set up by scanning a QR code or typing its key and confirming with a code, with ten recovery codes shown once; new
 * recovery codes and turning it off, each after a question; and passkeys (PasskeysSection).
 */
export function SecuritySection() {
  const twoStep = useTwoStep();
  const begin = useBeginTotp();
  const [setUp, setSetUp] = useState<TTotpSetUp | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [asking, setAsking] = useState<'remove' | 'regenerate' | null>(null);
  const regenerate = useRegenerateRecoveryCodes();
  const remove = useRemoveTwoStep();
  const failed = (title: string) => (error: Error) => notifications.show({ color: 'red', title, message: error.message });

  if (!twoStep.data) return <Skeleton h={56} />;
  if (!twoStep.data.available) {
    return (
      <Text size="sm" c="dimmed">
        You sign in through your organisation’s identity provider: your password, two-step sign-in and passkeys are set there.
      </Text>
    );
  }

  return (
    <Stack>
      <PasswordForm />
      <Group gap="xs" mt="md">
        <Title order={3} fz="md">
          Two-step sign-in
        </Title>
        <StateBadge tone={twoStep.data.totp ? 'good' : 'none'}>{twoStep.data.totp ? 'On' : 'Off'}</StateBadge>
      </Group>
      {twoStep.data.totp ? (
        <>
          <Text size="sm">
            Signing in asks for a code from your authenticator app after your password. Recovery codes left: {twoStep.data.recoveryCodesLeft}.
          </Text>
          <Group>
            <Button variant="default" onClick={() => setAsking('regenerate')}>
              New recovery codes
            </Button>
            <Button variant="default" color="red" onClick={() => setAsking('remove')}>
              Turn off two-step sign-in
            </Button>
          </Group>
        </>
      ) : setUp ? (
        <TotpSetUp
          setUp={setUp}
          onConfirmed={(recoveryCodes) => {
            setSetUp(null);
            setCodes(recoveryCodes);
          }}
          onCancel={() => setSetUp(null)}
        />
      ) : (
        <>
          <Text size="sm">
            Protect your account with a second step: after your password, enter a code from an authenticator app on your phone (such as Google Authenticator,
            Microsoft Authenticator, 1Password or Aegis).
          </Text>
          <Group>
            <Button loading={begin.isPending} onClick={() => begin.mutate(undefined, { onSuccess: setSetUp, onError: failed('Could not start set-up') })}>
              Set up an authenticator app
            </Button>
          </Group>
        </>
      )}
      {codes && <RecoveryCodes codes={codes} onDismiss={() => setCodes(null)} />}
      {asking === 'remove' && (
        <ConfirmDialog
          title="Turn off two-step sign-in?"
          confirmLabel="Turn off"
          pending={remove.isPending}
          onClose={() => setAsking(null)}
          onConfirm={() =>
            remove.mutate(undefined, {
              onSuccess: () => {
                setAsking(null);
                setCodes(null);
              },
              onError: failed('Not turned off'),
            })
          }
        >
          <Text size="sm">
            {twoStep.data.required
              ? 'This Cabinet requires two-step sign-in: your next sign-in will ask you to set up an authenticator app again.'
              : 'Signing in will ask for your password only.'}{' '}
            Your authenticator app’s entry and your recovery codes stop working.
          </Text>
        </ConfirmDialog>
      )}
      {asking === 'regenerate' && (
        <ConfirmDialog
          title="Make new recovery codes?"
          confirmLabel="Make new codes"
          pending={regenerate.isPending}
          onClose={() => setAsking(null)}
          onConfirm={() =>
            regenerate.mutate(undefined, {
              onSuccess: ({ recoveryCodes }) => {
                setAsking(null);
                setCodes(recoveryCodes);
              },
              onError: failed('No new codes'),
            })
          }
        >
          <Text size="sm">Your current recovery codes stop working at once. This cannot be undone.</Text>
        </ConfirmDialog>
      )}
      <PasskeysSection />
    </Stack>
  );
}

/** Scan or type the secret, then prove the app has it with a code it shows. */
function TotpSetUp({ setUp, onConfirmed, onCancel }: { setUp: TTotpSetUp; onConfirmed: (codes: string[]) => void; onCancel: () => void }) {
  const confirm = useConfirmTotp();
  const code = useTextField();
  const keyLabel = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!/^\d{3}\s?\d{3}$/.test(code.value.trim())) return code.setError('Enter the 6-digit code your app shows');
    confirm.mutate(code.value.trim(), {
      onSuccess: ({ recoveryCodes }) => onConfirmed(recoveryCodes),
      onError: (e) => {
        code.setError(fieldMessage(e) ?? (e instanceof ApiError ? e.message : 'Could not check the code. Try again.'));
      },
    });
  };
  return (
    <Stack>
      <Text size="sm">1. Scan this QR code with your authenticator app.</Text>
      <img src={`data:image/svg+xml,${encodeURIComponent(setUp.qrSvg)}`} alt="QR code to scan with your authenticator app" width={192} height={192} />
      <div role="group" aria-labelledby={keyLabel}>
        <Text size="sm" id={keyLabel}>
          Can’t scan it? Enter this key in the app instead:
        </Text>
        <CopyableValue value={setUp.secret} label="Secret key" copyLabel="Copy the key" />
      </div>
      <form onSubmit={submit} noValidate aria-label="Confirm authenticator app">
        <Stack gap="xs">
          <Text size="sm">2. Enter the 6-digit code the app shows for Cabinet.</Text>
          <Group align="flex-start" wrap="wrap">
            <TextInput label="Code from the app" inputMode="numeric" autoComplete="one-time-code" maxLength={7} w={{ base: '100%', xs: 200 }} {...code.input} />
            <Group mt={{ base: 0, xs: 25 }}>
              <Button type="submit" loading={confirm.isPending}>
                Turn on
              </Button>
              <Button variant="default" onClick={onCancel}>
                Cancel
              </Button>
            </Group>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}

/** The recovery codes, shown this once: copy them, download them, keep them somewhere safe. */
function RecoveryCodes({ codes, onDismiss }: { codes: string[]; onDismiss: () => void }) {
  const heading = useId();
  const region = useRef<HTMLElement>(null);
  useEffect(() => region.current?.focus(), [codes]);
  const text = codes.join('\n') + '\n';
  return (
    <Paper component="section" ref={region} tabIndex={-1} aria-labelledby={heading} withBorder radius="md" p="md" bg="var(--mantine-color-green-light)">
      <Group justify="space-between" wrap="nowrap" align="flex-start" mb="xs">
        <Title order={3} fz="md" id={heading}>
          Your recovery codes
        </Title>
        <CloseButton onClick={onDismiss} aria-label="Dismiss" />
      </Group>
      <Text size="sm" mb="sm">
        If you lose your phone, each code signs you in once in place of the app’s code. Keep them somewhere safe: they will not be shown again.
      </Text>
      <Text component="ul" aria-label="Recovery codes" ff="monospace" p={0} mb="sm" style={{ listStyle: 'none', columns: '2 8rem' }}>
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </Text>
      <Group>
        <CopyButton value={text}>
          {({ copied, copy }) => (
            <Button variant="default" onClick={copy}>
              {copied ? 'Copied' : 'Copy codes'}
            </Button>
          )}
        </CopyButton>
        <Button variant="default" component="a" href={`data:text/plain;charset=utf-8,${encodeURIComponent(text)}`} download="cabinet-recovery-codes.txt">
          Download codes
        </Button>
      </Group>
    </Paper>
  );
}

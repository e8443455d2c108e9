import { ActionIcon, Group, Paper, Skeleton, Stack, Text, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconTrash } from '@tabler/icons-react';
import type { TApiToken } from '@cabinet/contracts';
import { useState, type ReactNode } from 'react';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { formatDate, formatRelative } from '../../../lib/format.ts';
import { useRevokeApiToken } from '../api/use-api-tokens.ts';

/**
 * The caller's API tokens or app passwords: each with when it was made, last used and expires, and a button revoking
 * it once the person confirms (whatever signs in with it stops at once, and it cannot be brought back).
 */
export function TokenList({
  tokens,
  noun,
  label,
  showScopes = false,
  consequence,
  empty,
}: {
  tokens: TApiToken[] | undefined;
  /** What one is called in its buttons and its confirmation: "API token", "app password". */
  noun: string;
  /** The list's name. */
  label: string;
  showScopes?: boolean;
  /** What revoking one ends, said in the confirmation. */
  consequence: string;
  /** Shown while there are none. */
  empty: ReactNode;
}) {
  const revoke = useRevokeApiToken();
  const [revoking, setRevoking] = useState<TApiToken | null>(null);
  const failed = (error: Error) => notifications.show({ color: 'red', title: 'Not revoked', message: error.message });
  if (!tokens) return <Skeleton h={56} />;
  return (
    <>
      {tokens.length === 0 && empty}
      <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label={label}>
        {tokens.map((t) => (
          <Paper component="li" key={t.id} withBorder p="sm" radius="md">
            <Group justify="space-between" wrap="nowrap">
              <div style={{ minWidth: 0 }}>
                <Text fw={600} size="sm" truncate>
                  {t.name}
                </Text>
                <Text size="xs" c="dimmed">
                  {showScopes && `${t.scopes.join(' + ')} · `}created {formatDate(t.createdAt)} ·{' '}
                  {t.lastUsedAt ? `last used ${formatRelative(t.lastUsedAt)}` : 'never used'} · expires {formatDate(t.expiresAt)}
                </Text>
              </div>
              <Tooltip label="Revoke">
                <ActionIcon variant="subtle" color="red" onClick={() => setRevoking(t)} aria-label={`Revoke ${noun} ${t.name}`}>
                  <IconTrash size={18} />
                </ActionIcon>
              </Tooltip>
            </Group>
          </Paper>
        ))}
      </Stack>
      {revoking && (
        <ConfirmDialog
          title={`Revoke the ${noun} “${revoking.name}”?`}
          confirmLabel="Revoke"
          pending={revoke.isPending}
          onClose={() => setRevoking(null)}
          onConfirm={() => revoke.mutate(revoking.id, { onSuccess: () => setRevoking(null), onError: failed })}
        >
          <Text size="sm">{consequence} This cannot be undone.</Text>
        </ConfirmDialog>
      )}
    </>
  );
}

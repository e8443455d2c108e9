import { ActionIcon, Avatar, Blockquote, Button, Group, Menu, SegmentedControl, Stack, Text, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCheck, IconDots, IconMessageCircle, IconRestore, IconTrash } from '@tabler/icons-react';
import { ZCommentBody, type TCommentThread, type TItemAbilities } from '@cabinet/contracts';
import { useState } from 'react';
import { formatRelative } from '../../../lib/format.ts';
import { useCommentMutations, useCommentThreads } from '../api/use-comments.ts';

export interface NewThread {
  anchor: { start: Record<string, unknown>; end: Record<string, unknown> };
  quote: string;
}

function Composer({ label, submitLabel, onSubmit, onCancel, autoFocus }: { label: string; submitLabel: string; onSubmit: (body: string) => Promise<unknown>; onCancel?: () => void; autoFocus?: boolean }) {
  const [body, setBody] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    const parsed = ZCommentBody.safeParse(body);
    if (!parsed.success) return setError(parsed.error.issues[0]?.message);
    setBusy(true);
    try {
      await onSubmit(parsed.data);
      setBody('');
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack gap={6}>
      <Textarea
        aria-label={label}
        placeholder={label}
        autosize
        minRows={2}
        maxRows={8}
        value={body}
        error={error}
        data-autofocus={autoFocus || undefined}
        autoFocus={autoFocus}
        onChange={(e) => (setBody(e.currentTarget.value), setError(undefined))}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.metaKey || e.ctrlKey)) void submit();
          if (e.key === 'Escape' && onCancel) onCancel();
        }}
      />
      <Group justify="flex-end" gap="xs">
        {onCancel && (
          <Button size="xs" variant="default" onClick={onCancel}>
            Cancel
          </Button>
        )}
        <Button size="xs" loading={busy} onClick={() => void submit()} disabled={!body.trim()}>
          {submitLabel}
        </Button>
      </Group>
    </Stack>
  );
}

function Thread({ thread, documentId, me, abilities, active, onActivate }: { thread: TCommentThread; documentId: string; me: string; abilities: TItemAbilities; active: boolean; onActivate: () => void }) {
  const m = useCommentMutations(documentId);
  const failed = (error: Error) => notifications.show({ color: 'red', message: error.message });
  const [first] = thread.comments;
  return (
    <Stack
      gap="xs"
      p="sm"
      component="article"
      aria-label={`Comment by ${first?.author?.name ?? 'someone'}${thread.quote ? ` on “${thread.quote}”` : ''}`}
      className={active ? 'comment-thread comment-thread-active' : 'comment-thread'}
      onClick={onActivate}
    >
      {thread.quote && (
        <Blockquote p={4} pl="xs" fz="sm" c="dimmed" style={{ borderLeftWidth: 3 }} aria-label="Commented text">
          {thread.quote}
        </Blockquote>
      )}
      {thread.comments.map((c) => (
        <Group key={c.id} align="flex-start" gap="xs" wrap="nowrap">
          <Avatar size="sm" radius="xl" aria-hidden>
            {(c.author?.name ?? '?').slice(0, 1).toUpperCase()}
          </Avatar>
          <Stack gap={0} style={{ flex: 1, minWidth: 0 }}>
            <Group gap={6} justify="space-between" wrap="nowrap">
              <Text size="sm" fw={600} truncate>
                {c.author?.name ?? 'Former member'}
              </Text>
              <Group gap={2} wrap="nowrap">
                <Text size="xs" c="dimmed">
                  {formatRelative(c.createdAt)}
                </Text>
                {((c.author?.id === me && abilities.comment) || abilities.deleteAnyComment) && (
                  <Menu position="bottom-end">
                    <Menu.Target>
                      <ActionIcon size="sm" variant="subtle" color="gray" aria-label={c.id === thread.id ? 'Thread actions' : 'Comment actions'}>
                        <IconDots aria-hidden size={14} />
                      </ActionIcon>
                    </Menu.Target>
                    <Menu.Dropdown>
                      <Menu.Item color="danger" leftSection={<IconTrash aria-hidden size={14} />} onClick={() => m.remove.mutate(c.id, { onError: failed })}>
                        {c.id === thread.id ? 'Delete thread' : 'Delete comment'}
                      </Menu.Item>
                    </Menu.Dropdown>
                  </Menu>
                )}
              </Group>
            </Group>
            <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {c.body}
            </Text>
          </Stack>
        </Group>
      ))}
      {thread.resolvedAt && (
        <Text size="xs" c="dimmed">
          Resolved by {thread.resolvedBy?.name ?? 'someone'} {formatRelative(thread.resolvedAt)}
        </Text>
      )}
      {abilities.comment && (
        <>
          {active && !thread.resolvedAt && <Composer label="Reply" submitLabel="Reply" onSubmit={(body) => m.add.mutateAsync({ body, threadId: thread.id })} />}
          <Group justify="flex-end">
            <Button
              size="compact-xs"
              variant="subtle"
              leftSection={thread.resolvedAt ? <IconRestore aria-hidden size={14} /> : <IconCheck aria-hidden size={14} />}
              onClick={(e) => {
                e.stopPropagation();
                m.resolve.mutate({ threadId: thread.id, resolved: !thread.resolvedAt }, { onError: failed });
              }}
            >
              {thread.resolvedAt ? 'Reopen' : 'Resolve'}
            </Button>
          </Group>
        </>
      )}
    </Stack>
  );
}

/**
 * The comments beside a document: open and resolved threads, a new thread on the selected text,
 * replies. Picking a thread marks its text in the document.
 */
export function CommentsPanel(props: {
  documentId: string;
  me: string;
  /** The document's: who may comment, and delete others' comments. */
  abilities: TItemAbilities;
  draft: NewThread | undefined;
  onDraftDone: () => void;
  active: string | undefined;
  onActivate: (threadId: string) => void;
}) {
  const threads = useCommentThreads(props.documentId);
  const m = useCommentMutations(props.documentId);
  const [show, setShow] = useState<'open' | 'resolved'>('open');
  const all = threads.data ?? [];
  const shown = all.filter((t) => (show === 'open' ? !t.resolvedAt : t.resolvedAt));
  return (
    <Stack gap="sm" aria-label="Comments" role="region">
      <SegmentedControl
        size="xs"
        aria-label="Which threads"
        value={show}
        onChange={(v) => setShow(v as 'open' | 'resolved')}
        data={[
          { value: 'open', label: `Open (${all.filter((t) => !t.resolvedAt).length})` },
          { value: 'resolved', label: `Resolved (${all.filter((t) => t.resolvedAt).length})` },
        ]}
      />
      {props.draft && (
        <Stack gap="xs" p="sm" className="comment-thread comment-thread-active">
          <Blockquote p={4} pl="xs" fz="sm" c="dimmed" style={{ borderLeftWidth: 3 }}>
            {props.draft.quote}
          </Blockquote>
          <Composer
            label="Comment"
            submitLabel="Comment"
            autoFocus
            onCancel={props.onDraftDone}
            onSubmit={async (body) => {
              const thread = await m.add.mutateAsync({ body, anchor: props.draft!.anchor, quote: props.draft!.quote });
              props.onDraftDone();
              props.onActivate(thread.id);
            }}
          />
        </Stack>
      )}
      {!props.draft && shown.length === 0 && (
        <Stack align="center" gap={4} py="lg" c="dimmed">
          <IconMessageCircle aria-hidden size={28} />
          <Text size="sm" ta="center">
            {show === 'open' ? (props.abilities.comment ? 'No open comments. Select some text and choose Comment.' : 'No open comments.') : 'No resolved comments.'}
          </Text>
        </Stack>
      )}
      {shown.map((t) => (
        <Thread key={t.id} thread={t} documentId={props.documentId} me={props.me} abilities={props.abilities} active={props.active === t.id} onActivate={() => props.onActivate(t.id)} />
      ))}
    </Stack>
  );
}

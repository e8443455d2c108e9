import { ActionIcon, Avatar, Blockquote, Button, Group, Menu, Paper, SegmentedControl, Stack, Text, Textarea, UnstyledButton } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCheck, IconDots, IconMessageCircle, IconPencil, IconRestore, IconTrash } from '@tabler/icons-react';
import { ZCommentBody, type TComment, type TCommentThread, type TItemAbilities } from '@cabinet/contracts';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { queryKeys } from '../../../lib/query-keys.ts';
import { findMembers } from '../api/members.ts';
import { formatRelative } from '../../../lib/format.ts';
import { useCommentMutations, useCommentThreads } from '../api/use-comments.ts';

export interface NewThread {
  anchor: { start: Record<string, unknown>; end: Record<string, unknown> };
  quote: string;
}

interface Suggestion {
  id: string;
  label: string;
  email: string;
}

/** The `@name` being typed just before the caret, if any: where it starts and what follows the `@`. */
function mentionAt(text: string, caret: number): { start: number; query: string } | undefined {
  const match = /(^|\s)@([^\s@]{0,40})$/.exec(text.slice(0, caret));
  return match ? { start: caret - match[2]!.length - 1, query: match[2]! } : undefined;
}

/**
 * A comment's text box. `@` followed by a name suggests the workspace's people (as in the
 * document): arrows move, Enter or Tab picks, Escape closes the list. Whom it mentions goes with
 * the comment, so they are told (those who cannot see the document are not). Ctrl/⌘+Enter sends;
 * Escape cancels, when it can be cancelled. `initial`: the words of a comment being changed.
 */
function Composer({
  workspaceId,
  label,
  submitLabel,
  onSubmit,
  onCancel,
  autoFocus,
  initial = '',
}: {
  workspaceId: string;
  label: string;
  submitLabel: string;
  onSubmit: (body: string, mentions: string[]) => Promise<unknown>;
  onCancel?: () => void;
  autoFocus?: boolean;
  initial?: string;
}) {
  const [body, setBody] = useState(initial);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [typing, setTyping] = useState<{ start: number; query: string }>();
  const [active, setActive] = useState(0);
  const [picked, setPicked] = useState<Suggestion[]>([]);
  const listId = useId();
  const box = useRef<HTMLTextAreaElement>(null);
  // Words being changed: the caret goes after them, where a person goes on writing.
  useEffect(() => {
    if (initial && autoFocus) box.current?.setSelectionRange(initial.length, initial.length);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, as the box opens: the words are the box's own from then on
  }, []);
  const suggestions = useQuery({
    queryKey: queryKeys.memberSuggestions(workspaceId, typing?.query ?? ''),
    queryFn: async () =>
      (await findMembers(workspaceId, typing?.query ?? '')).map((m): Suggestion => ({ id: m.userId, label: m.name || m.email, email: m.email })),
    enabled: !!typing,
  });
  const options = typing ? (suggestions.data ?? []) : [];
  const showList = !!typing && options.length > 0;
  const follow = (el: HTMLTextAreaElement) => {
    const next = mentionAt(el.value, el.selectionStart);
    setTyping((t) => (t?.start === next?.start && t?.query === next?.query ? t : next));
    if (next?.query !== typing?.query) setActive(0);
  };
  const pick = (s: Suggestion) => {
    if (!typing) return;
    const inserted = `@${s.label} `;
    const caret = typing.start + 1 + typing.query.length;
    setBody((b) => b.slice(0, typing.start) + inserted + b.slice(caret));
    setPicked((p) => (p.some((x) => x.id === s.id) ? p : [...p, s]));
    setTyping(undefined);
    requestAnimationFrame(() => box.current?.setSelectionRange(typing.start + inserted.length, typing.start + inserted.length));
  };
  const submit = async () => {
    const parsed = ZCommentBody.safeParse(body);
    if (!parsed.success) return setError(parsed.error.issues[0]?.message);
    setBusy(true);
    try {
      // Only those still named in the text: a mention typed and then deleted tells no one.
      await onSubmit(
        parsed.data,
        picked.filter((p) => parsed.data.includes(`@${p.label}`)).map((p) => p.id),
      );
      setBody('');
      setPicked([]);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack gap={6}>
      <Textarea
        ref={box}
        aria-label={label}
        placeholder={`${label} (type @ to mention someone)`}
        autosize
        minRows={2}
        maxRows={8}
        value={body}
        error={error}
        data-autofocus={autoFocus || undefined}
        autoFocus={autoFocus}
        aria-controls={showList ? listId : undefined}
        aria-activedescendant={showList ? `${listId}-${active}` : undefined}
        // Escape closes the list or cancels here, not the drawer the comments may be in.
        data-mantine-stop-propagation={showList || onCancel ? 'true' : undefined}
        onChange={(e) => {
          setBody(e.currentTarget.value);
          setError(undefined);
          follow(e.currentTarget);
        }}
        onSelect={(e) => follow(e.currentTarget)}
        onBlur={() => setTyping(undefined)}
        onKeyDown={(e) => {
          if (showList) {
            if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
              e.preventDefault();
              setActive((a) => (a + (e.key === 'ArrowDown' ? 1 : options.length - 1)) % options.length);
              return;
            }
            if (e.key === 'Enter' || e.key === 'Tab') {
              e.preventDefault();
              const s = options[active];
              if (s) pick(s);
              return;
            }
            if (e.key === 'Escape') {
              e.stopPropagation();
              setTyping(undefined);
              return;
            }
          }
          if (e.key === 'Enter' && (e.metaKey || e.ctrlKey)) void submit();
          if (e.key === 'Escape' && onCancel) onCancel();
        }}
      />
      {showList && (
        <Paper withBorder shadow="sm" p={4}>
          <Stack gap={0} role="listbox" id={listId} aria-label="Mention someone">
            {options.map((s, i) => (
              <UnstyledButton
                key={s.id}
                id={`${listId}-${i}`}
                role="option"
                aria-selected={i === active}
                tabIndex={-1}
                // The text box keeps the focus: a click must not take it away before the pick.
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => pick(s)}
                onMouseEnter={() => setActive(i)}
                px="xs"
                py={4}
                style={{ borderRadius: 'var(--mantine-radius-sm)', background: i === active ? 'var(--mantine-color-default-hover)' : undefined }}
              >
                <Text size="sm">{s.label}</Text>
                {s.email && (
                  <Text size="xs" c="dimmed">
                    {s.email}
                  </Text>
                )}
              </UnstyledButton>
            ))}
          </Stack>
        </Paper>
      )}
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

/**
 * One comment of a thread: its author, when it was written (and whether it was changed since), its
 * words, and a menu of what the person may do with it — change their own words in place (the same
 * composer, @-mentions included; whom the new words newly mention is told), delete it.
 */
function CommentEntry({
  comment: c,
  thread,
  workspaceId,
  documentId,
  me,
  abilities,
}: {
  comment: TComment;
  thread: TCommentThread;
  workspaceId: string;
  documentId: string;
  me: string;
  abilities: TItemAbilities;
}) {
  const m = useCommentMutations(documentId);
  const failed = (error: Error) => notifications.show({ color: 'red', message: error.message });
  const [editing, setEditing] = useState(false);
  const actions = useRef<HTMLButtonElement>(null);
  const mine = c.author?.id === me && abilities.comment;
  const stopEditing = () => {
    setEditing(false);
    // The keyboard goes back where it came from.
    requestAnimationFrame(() => actions.current?.focus());
  };
  const edited = c.updatedAt !== c.createdAt;
  return (
    <Group align="flex-start" gap="xs" wrap="nowrap">
      <Avatar size="sm" radius="xl" aria-hidden>
        {(c.author?.name ?? '?').slice(0, 1).toUpperCase()}
      </Avatar>
      <Stack gap={0} style={{ flex: 1, minWidth: 0 }}>
        <Group gap={6} justify="space-between" wrap="nowrap">
          <Text size="sm" fw={600} truncate>
            {c.author?.name ?? 'Former member'}
          </Text>
          <Group gap={2} wrap="nowrap">
            <Text size="xs" c="dimmed" title={edited ? `Edited ${formatRelative(c.updatedAt)}` : undefined}>
              {formatRelative(c.createdAt)}
              {edited && ' (edited)'}
            </Text>
            {(mine || abilities.deleteAnyComment) && (
              // Focus goes into the box that Edit opens, not back to this button.
              <Menu position="bottom-end" returnFocus={!editing}>
                <Menu.Target>
                  <ActionIcon ref={actions} size="sm" variant="subtle" color="gray" aria-label="Comment actions">
                    <IconDots aria-hidden size={14} />
                  </ActionIcon>
                </Menu.Target>
                <Menu.Dropdown>
                  {mine && (
                    <Menu.Item leftSection={<IconPencil aria-hidden size={14} />} onClick={() => setEditing(true)}>
                      Edit
                    </Menu.Item>
                  )}
                  <Menu.Item color="danger" leftSection={<IconTrash aria-hidden size={14} />} onClick={() => m.remove.mutate(c.id, { onError: failed })}>
                    {c.id === thread.id ? 'Delete thread' : 'Delete comment'}
                  </Menu.Item>
                </Menu.Dropdown>
              </Menu>
            )}
          </Group>
        </Group>
        {editing ? (
          <Composer
            workspaceId={workspaceId}
            label="Edit comment"
            submitLabel="Save"
            initial={c.body}
            autoFocus
            onCancel={stopEditing}
            onSubmit={async (body, mentions) => {
              // Unchanged words are not a change.
              if (body !== c.body || mentions.length) await m.edit.mutateAsync({ commentId: c.id, body, mentions });
              stopEditing();
            }}
          />
        ) : (
          <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {c.body}
          </Text>
        )}
      </Stack>
    </Group>
  );
}

function Thread({
  thread,
  workspaceId,
  documentId,
  me,
  abilities,
  active,
  onActivate,
}: {
  thread: TCommentThread;
  workspaceId: string;
  documentId: string;
  me: string;
  abilities: TItemAbilities;
  active: boolean;
  onActivate: () => void;
}) {
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
        <CommentEntry key={c.id} comment={c} thread={thread} workspaceId={workspaceId} documentId={documentId} me={me} abilities={abilities} />
      ))}
      {thread.resolvedAt && (
        <Text size="xs" c="dimmed">
          Resolved by {thread.resolvedBy?.name ?? 'someone'} {formatRelative(thread.resolvedAt)}
        </Text>
      )}
      {abilities.comment && (
        <>
          {active && !thread.resolvedAt && (
            <Composer
              workspaceId={workspaceId}
              label="Reply"
              submitLabel="Reply"
              onSubmit={(body, mentions) => m.add.mutateAsync({ body, threadId: thread.id, mentions })}
            />
          )}
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
  workspaceId: string;
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
  // A thread opened from elsewhere (a notification) shows among its kind, resolved or not.
  const activeResolved = all.find((t) => t.id === props.active)?.resolvedAt;
  const [shownActive, setShownActive] = useState<string>();
  if (props.active !== shownActive && activeResolved !== undefined) {
    setShownActive(props.active);
    setShow(activeResolved ? 'resolved' : 'open');
  }
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
            workspaceId={props.workspaceId}
            label="Comment"
            submitLabel="Comment"
            autoFocus
            onCancel={props.onDraftDone}
            onSubmit={async (body, mentions) => {
              const thread = await m.add.mutateAsync({ body, anchor: props.draft!.anchor, quote: props.draft!.quote, mentions });
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
            {show === 'open'
              ? props.abilities.comment
                ? 'No open comments. Select some text and choose Comment.'
                : 'No open comments.'
              : 'No resolved comments.'}
          </Text>
        </Stack>
      )}
      {shown.map((t) => (
        <Thread
          key={t.id}
          thread={t}
          workspaceId={props.workspaceId}
          documentId={props.documentId}
          me={props.me}
          abilities={props.abilities}
          active={props.active === t.id}
          onActivate={() => props.onActivate(t.id)}
        />
      ))}
    </Stack>
  );
}

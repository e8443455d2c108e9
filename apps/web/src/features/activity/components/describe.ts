import type { TActivityAction, TActivityEntry } from '@cabinet/contracts';

/** Each action as people read it, for the action filter. */
export const ACTION_LABELS: Record<TActivityAction, string> = {
  'item.created': 'Created',
  'item.renamed': 'Renamed',
  'item.moved': 'Moved',
  'item.updated': 'Changed or new version',
  'item.trashed': 'Moved to trash',
  'item.restored': 'Restored',
  'item.deleted': 'Deleted forever',
  'item.shared': 'Shared',
  'item.unlocked': 'Lock broken',
  'file.previewed': 'Thumbnail made',
  'comment.added': 'Commented',
  'comment.edited': 'Edited a comment',
  'comment.resolved': 'Resolved a comment',
  'comment.reopened': 'Reopened a comment',
  'comment.deleted': 'Deleted a comment',
  'member.added': 'Member joined',
  'member.role_changed': 'Role changed',
  'member.removed': 'Member removed',
  'invitation.created': 'Invited',
  'invitation.revoked': 'Invitation revoked',
  'invitation.accepted': 'Invitation accepted',
  'invitation.resent': 'Invitation sent again',
  'session.started': 'Signed in',
  'session.ended': 'Signed out',
  'token.created': 'API token created',
  'token.revoked': 'API token revoked',
  'token.used': 'API token used',
  'group.created': 'Group created',
  'group.renamed': 'Group renamed',
  'group.deleted': 'Group deleted',
  'group.member_added': 'Added to a group',
  'group.member_removed': 'Removed from a group',
  'link.created': 'Public link made',
  'link.updated': 'Public link changed',
  'link.revoked': 'Public link revoked',
  'link.viewed': 'Public link opened',
  'link.downloaded': 'Downloaded through a link',
  'link.policy_changed': 'Link policy changed',
  'search.language_changed': 'Search language changed',
};

/** Who did it, as a sentence starts: a person's name, "Someone" for an account that is gone, or Cabinet. */
export function actorName(e: TActivityEntry, meId?: string): string {
  if (e.actor.kind === 'system' && !e.actor.id) return 'Cabinet';
  if (e.actor.kind === 'link') return 'Someone with a link';
  if (meId && e.actor.id === meId) return 'You';
  return e.actor.name ?? 'A former member';
}

const str = (v: unknown) => (typeof v === 'string' ? v : null);

/** Whom the entry is about, as a sentence names them: "Bea Reader", "the group “Design”", "everyone in the workspace". */
function subjectName(e: TActivityEntry, recorded?: string | null): string {
  const s = e.subject;
  if (s?.kind === 'workspace') return 'everyone in the workspace';
  if (s?.kind === 'group') return s.name ? `the group “${s.name}”` : 'a group since deleted';
  return s?.name ?? recorded ?? (s ? 'a former member' : 'someone');
}

/** The entry is about the one who did it (someone joining, leaving, taking a role through an invitation). */
const aboutThemselves = (e: TActivityEntry) => !e.subject || (e.subject.kind === 'user' && e.subject.id === e.actor.id);

/**
 * What happened, after the actor's name: "renamed it from Plans", or, in the audit log (where the
 * item is named beside it), "renamed Plans 2027 (was Plans)".
 */
export function describeAction(e: TActivityEntry, o: { onItem: boolean }): string {
  const d = e.data;
  const it = o.onItem ? 'it' : `“${e.item?.name ?? str(d.name) ?? 'an item'}”`;
  const role = str(d.role);
  switch (e.action) {
    case 'item.created':
      return d.copiedFrom ? `made ${it} as a copy` : e.actor.kind === 'link' ? `uploaded ${it}` : `created ${it}`;
    case 'item.renamed':
      return `renamed ${it}${str(d.previousName) ? ` from “${str(d.previousName)}”` : ''}`;
    case 'item.moved':
      return `moved ${it}`;
    case 'item.updated':
      return typeof d.version === 'number' ? `uploaded version ${d.version} of ${it}` : `edited ${it}`;
    case 'item.trashed':
      return `moved ${it} to the trash`;
    case 'item.restored':
      return str(d.fromBackup) ? `brought ${it} back from a backup (${str(d.fromBackup)})` : `restored ${it}`;
    case 'item.deleted':
      return `deleted ${it} forever`;
    case 'item.shared':
      return role ? `shared ${it} with ${subjectName(e)} (${role})` : `stopped sharing ${it} with ${subjectName(e)}`;
    case 'item.unlocked': {
      const client = str(d.client) ? ` (${str(d.client)})` : '';
      if (e.subject && aboutThemselves(e)) return `broke their own lock on ${it}${client}`;
      return e.subject ? `broke the lock ${subjectName(e)} held on ${it}${client}` : `broke the locks on ${it}`;
    }
    case 'file.previewed':
      return `made a thumbnail of ${it}`;
    case 'comment.added':
      return `commented on ${it}`;
    case 'comment.edited':
      return `edited a comment on ${it}`;
    case 'comment.resolved':
      return `resolved a comment on ${it}`;
    case 'comment.reopened':
      return `reopened a comment on ${it}`;
    case 'comment.deleted':
      return `deleted a comment on ${it}`;
    case 'member.added':
      return aboutThemselves(e) ? `joined as ${role ?? 'member'}` : `added ${subjectName(e)} as ${role ?? 'member'}`;
    case 'member.role_changed':
      return `changed ${aboutThemselves(e) ? 'their own role' : `the role of ${subjectName(e)}`} from ${str(d.from) ?? '?'} to ${str(d.to) ?? '?'}`;
    case 'member.removed':
      return e.subject && aboutThemselves(e) ? 'left the workspace' : `removed ${subjectName(e, str(d.name))} from the workspace`;
    case 'invitation.created':
      return `invited ${str(d.email) ?? 'people with a link'}${role ? ` as ${role}` : ''}`;
    case 'invitation.revoked': {
      const why =
        d.reason === 'not_mailed' ? ' (its email could not be sent)' : d.reason === 'maker_left' ? ' (its maker no longer manages the workspace)' : '';
      return `revoked the invitation of ${str(d.email) ?? 'an invite link'}${why}`;
    }
    case 'invitation.resent':
      return `sent the invitation of ${str(d.email) ?? 'someone'} again`;
    case 'invitation.accepted':
      return `accepted an invitation${role ? ` as ${role}` : ''}`;
    case 'session.started':
      return 'signed in';
    case 'session.ended':
      return typeof d.others === 'number'
        ? `signed out everywhere else (${d.others} ${d.others === 1 ? 'session' : 'sessions'})`
        : d.current === false
          ? 'ended a session elsewhere'
          : 'signed out';
    case 'token.created':
      return `created the API token “${str(d.tokenName) ?? ''}”`;
    case 'token.revoked':
      return `revoked the API token “${str(d.tokenName) ?? ''}”`;
    case 'token.used':
      return 'used an API token';
    case 'group.created':
      return `created the group “${str(d.name) ?? ''}”`;
    case 'group.renamed':
      return `renamed the group “${str(d.from) ?? ''}” to “${str(d.to) ?? ''}”`;
    case 'group.deleted':
      return `deleted the group “${str(d.name) ?? ''}”`;
    case 'group.member_added':
      return `added ${subjectName(e)} to the group “${str(d.name) ?? ''}”${d.source === 'idp' ? ' (from the identity provider)' : ''}`;
    case 'group.member_removed': {
      const why = d.reason === 'left_workspace' ? ' (they left the workspace)' : d.source === 'idp' ? ' (from the identity provider)' : '';
      return `removed ${subjectName(e)} from the group “${str(d.name) ?? ''}”${why}`;
    }
    case 'link.created':
      return `${d.kind === 'file_request' ? 'made a file request for' : 'made a public link to'} ${it}${d.hasPassword ? ' (with a password)' : ''}`;
    case 'link.updated':
      return `changed a public link to ${it}`;
    case 'link.revoked':
      return `revoked a public link to ${it}`;
    case 'link.viewed':
      return `opened ${it}`;
    case 'link.downloaded':
      return `downloaded ${it}`;
    case 'link.policy_changed':
      return 'changed the link policy';
    case 'search.language_changed':
      if (d.language === 'simple') return 'set search to match words only as written';
      // The languages are named by their English names, in small letters.
      return typeof d.language === 'string' && d.language
        ? `set the language of search to ${d.language[0]!.toUpperCase()}${d.language.slice(1)}`
        : 'changed the language of search';
  }
}

/** An entry as a view lists it: `times` consecutive saves of a document by the same person shown as one. */
export type ShownEntry = TActivityEntry & { times: number };

/**
 * Folds each run of consecutive document edits (`item.updated` without a file version) by the same
 * actor on the same item into its newest entry, counting them: a document is stored every few
 * seconds while people type, and one line "edited it (12 times)" says what a dozen would.
 */
export function foldSaves(entries: readonly TActivityEntry[]): ShownEntry[] {
  const shown: ShownEntry[] = [];
  for (const e of entries) {
    const last = shown.at(-1);
    const save = e.action === 'item.updated' && typeof e.data.version !== 'number';
    if (
      save &&
      last &&
      last.action === 'item.updated' &&
      typeof last.data.version !== 'number' &&
      last.item?.id === e.item?.id &&
      last.actor.id === e.actor.id &&
      last.actor.kind === e.actor.kind
    ) {
      last.times += 1;
      continue;
    }
    shown.push({ ...e, times: 1 });
  }
  return shown;
}

/** `describeAction`, with how many saves an entry stands for. */
export function describeShown(e: ShownEntry, o: { onItem: boolean }): string {
  return `${describeAction(e, o)}${e.times > 1 ? ` (${e.times} times)` : ''}`;
}
